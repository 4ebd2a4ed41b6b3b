import { MAX_PAGES_COUNTED, MAX_SESSIONS_COUNTED, SightingBuffer } from './sighting-buffer';

describe('SightingBuffer', () => {
  const at = (seconds: number) => Date.UTC(2026, 4, 1, 10, 0, seconds);
  const iso = (seconds: number) => new Date(at(seconds)).toISOString();

  it('counts sightings, distinct sessions and the latest time per script, and batches per store', () => {
    const buffer = new SightingBuffer();
    buffer.recordBatch('s1', 'o1', 3, at(5), '/checkout');
    buffer.recordScript('s1', 'o1', 'a', 'sess-1', at(5));
    buffer.recordScript('s1', 'o1', 'a', 'sess-1', at(2));
    buffer.recordScript('s1', 'o1', 'a', 'sess-2', at(9));
    buffer.recordBatch('s1', 'o1', 2, at(9), '/checkout');
    const [flushed] = buffer.drain();
    expect(flushed).toEqual({
      storeId: 's1',
      orgId: 'o1',
      firstEventAt: iso(2),
      lastEventAt: iso(9),
      batches: 2,
      observations: 5,
      scripts: [{ scriptId: 'a', sightings: 3, sessions: 2, lastSeenAt: iso(9) }],
      pages: [{ path: '/checkout', batches: 2 }],
    });
  });

  it('counts batches by page path up to a bound of paths; batches from further paths count under no page', () => {
    const buffer = new SightingBuffer();
    for (let n = 0; n < MAX_PAGES_COUNTED + 5; n += 1) buffer.recordBatch('s1', 'o1', 1, at(1), `/page-${n}`);
    buffer.recordBatch('s1', 'o1', 1, at(2), '/page-0');
    const [window] = buffer.drain();
    expect(window.batches).toBe(MAX_PAGES_COUNTED + 6);
    expect(window.pages).toHaveLength(MAX_PAGES_COUNTED);
    expect(window.pages?.[0]).toEqual({ path: '/page-0', batches: 2 });
  });

  it('counts distinct sessions up to a bound, so a window stays small whatever a page sends', () => {
    const buffer = new SightingBuffer();
    for (let n = 0; n < MAX_SESSIONS_COUNTED + 500; n += 1) buffer.recordScript('s1', 'o1', 'a', `session-${n}`, at(1));
    const [window] = buffer.drain();
    expect(window.scripts[0]).toMatchObject({ sightings: MAX_SESSIONS_COUNTED + 500, sessions: MAX_SESSIONS_COUNTED });
  });

  it('starts a new window once drained, one window per store', () => {
    const buffer = new SightingBuffer();
    buffer.recordBatch('s1', 'o1', 1, at(1), '/');
    buffer.recordBatch('s2', 'o1', 1, at(1), '/');
    expect(buffer.drain().map((window) => window.storeId)).toEqual(['s1', 's2']);
    expect(buffer.size).toBe(0);
    expect(buffer.drain()).toEqual([]);
  });
});
