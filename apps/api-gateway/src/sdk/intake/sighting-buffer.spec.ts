import { MAX_PAGES_COUNTED, MAX_SESSIONS_COUNTED, SightingBuffer } from './sighting-buffer';

describe('SightingBuffer', () => {
  const at = (seconds: number) => Date.UTC(2026, 4, 1, 10, 0, seconds);
  const iso = (seconds: number) => new Date(at(seconds)).toISOString();
  const visit = (path: string, sessionId = 'sess-1', client = 'client-1') => ({ path, sessionId, client });

  it('counts sightings, distinct sessions and the latest time per script, and batches per store', () => {
    const buffer = new SightingBuffer();
    buffer.recordBatch('s1', 'o1', 3, at(5), visit('/checkout'));
    buffer.recordScript('s1', 'o1', 'a', 'sess-1', at(5));
    buffer.recordScript('s1', 'o1', 'a', 'sess-1', at(2));
    buffer.recordScript('s1', 'o1', 'a', 'sess-2', at(9));
    buffer.recordBatch('s1', 'o1', 2, at(9), visit('/checkout', 'sess-2'));
    const [flushed] = buffer.drain();
    expect(flushed).toEqual({
      storeId: 's1',
      orgId: 'o1',
      windowId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      firstEventAt: iso(2),
      lastEventAt: iso(9),
      batches: 2,
      observations: 5,
      scripts: [{ scriptId: 'a', sightings: 3, sessions: 2, lastSeenAt: iso(9) }],
      pages: [{ path: '/checkout', batches: 2 }],
      pageViews: { batches: 2, sessions: 2, clients: 1, firstAt: iso(5), lastAt: iso(9) },
    });
  });

  it('counts a batch that is no page view as usage only: no page view, no page, no time of one', () => {
    const buffer = new SightingBuffer();
    for (let n = 0; n < 20; n += 1) buffer.recordBatch('s1', 'o1', 0, at(n), null);
    buffer.recordBatch('s1', 'o1', 4, at(30), visit('/checkout', 'sess-1', 'client-1'));
    buffer.recordBatch('s1', 'o1', 4, at(31), visit('/checkout', 'sess-2', 'client-2'));
    buffer.recordBatch('s1', 'o1', 4, at(32), visit('/checkout', 'sess-2', 'client-2'));
    const [window] = buffer.drain();
    expect(window).toMatchObject({ batches: 23, observations: 12, firstEventAt: iso(0), pages: [{ path: '/checkout', batches: 3 }] });
    expect(window.pageViews).toEqual({ batches: 3, sessions: 2, clients: 2, firstAt: iso(30), lastAt: iso(32) });
    buffer.recordBatch('s1', 'o1', 0, at(40), null);
    expect(buffer.drain()[0]).toMatchObject({ batches: 1, pages: [], pageViews: { batches: 0, sessions: 0, clients: 0, firstAt: null, lastAt: null } });
  });

  it('counts batches by page path up to a bound of paths; batches from further paths count under no page', () => {
    const buffer = new SightingBuffer();
    for (let n = 0; n < MAX_PAGES_COUNTED + 5; n += 1) buffer.recordBatch('s1', 'o1', 1, at(1), visit(`/page-${n}`));
    buffer.recordBatch('s1', 'o1', 1, at(2), visit('/page-0'));
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
    buffer.recordBatch('s1', 'o1', 1, at(1), null);
    buffer.recordBatch('s2', 'o1', 1, at(1), null);
    expect(buffer.drain().map((window) => window.storeId)).toEqual(['s1', 's2']);
    expect(buffer.size).toBe(0);
    expect(buffer.drain()).toEqual([]);
  });
});
