import { hashTimeline, SCRIPT_HISTORY, SCRIPT_HISTORY_PAGES_MAX, type ScriptSightings } from '@pss/contracts';
import { MemoryReadStore, type AnyDocument, type ReadCollection } from '@pss/read-store';
import { expectReplayedTwice, recorded, storedEventsOf } from '@pss/testkit';
import type { SightingsEvent } from '../ingestion/sightings';
import { ScriptHistoryProjection, withPage } from './script-history.projection';
import type { ScriptEvent } from './script.events';

const stored = storedEventsOf<ScriptEvent>('script');

const H1 = 'sha384-one';
const H2 = 'sha384-two';

const content = (hash: string | null) => ({ hash, sriHash: null, hashSource: 'sdk', integrityAttr: false, sizeBytes: 2048 });

const detected = (hash: string | null, at: string) =>
  stored('c1', 'ScriptDetected', {
    ...content(hash),
    scriptId: 'c1',
    storeId: 's1',
    orgId: 'o1',
    src: 'https://cdn.example/pay.js',
    inline: false,
    host: 'cdn.example',
    type: 'known_third',
    vendorId: 'acme',
    category: 'payment',
    status: 'needs_review',
    gtmContainer: null,
    pageUrl: 'https://loja.example/checkout?cart=42',
    sessionId: 'x1',
    detectedAt: at,
  });

const changed = (hash: string, previousHash: string | null, at: string, page = '/checkout') =>
  stored('c1', 'ScriptHashChanged', {
    ...content(hash),
    scriptId: 'c1',
    storeId: 's1',
    previousHash,
    integrityStatus: 'monitored',
    unauthorizedChange: false,
    authorizedHash: null,
    src: 'https://cdn.example/pay.js',
    pageUrl: `https://loja.example${page}`,
    sessionId: 'x2',
    changedAt: at,
  });

const flushed = (scripts: ScriptSightings[]) => {
  const data: SightingsEvent['data'] = { storeId: 's1', orgId: 'o1', firstEventAt: 'T0', lastEventAt: 'T9', batches: 1, observations: 1, scripts };
  return recorded('sightings-s1', 'SightingsFlushed', data);
};

const sighted = (lastSeenAt: string) => flushed([{ scriptId: 'c1', sightings: 2, sessions: 1, lastSeenAt }]);

/** Handled twice in a row, then the whole log again: the same history as once. */
describe('ScriptHistoryProjection replayed twice', () => {
  it('keeps every content with when it was first and last seen, sightings counting for the current one', async () => {
    await expectReplayedTwice(
      ScriptHistoryProjection,
      [
        detected(H1, 'T1'),
        stored('c1', 'ScriptRecommended', { scriptId: 'c1', storeId: 's1', recommendation: { policy_id: 'p1', policy_version: 1, action: 'authorize', justification: 'PSP', at: 'T1' } }),
        // Evaluated again to the same end: once; then another version of the policy: kept beside.
        stored('c1', 'ScriptRecommended', { scriptId: 'c1', storeId: 's1', recommendation: { policy_id: 'p1', policy_version: 1, action: 'authorize', justification: 'PSP', at: 'T2' } }),
        stored('c1', 'ScriptRecommended', { scriptId: 'c1', storeId: 's1', recommendation: { policy_id: 'p1', policy_version: 2, action: 'needs_review', justification: 'Look', at: 'T2' } }),
        sighted('T2'),
        changed(H2, H1, 'T3', '/pay/confirm'),
        sighted('T4'),
        // Back to the first content: its span's last seen moves, no new span.
        changed(H1, H2, 'T5'),
        stored('c1', 'ScriptHashLearned', { scriptId: 'c1', storeId: 's1', hash: 'sha256-one', hashSource: 'sri', sessionId: 'x3', seenAt: 'T6' }),
        // A window flushed late: its last sighting is older than what the span has.
        sighted('T5'),
        stored('c1', 'ScriptIntegrityRefused', { scriptId: 'c1', storeId: 's1', src: 'https://cdn.example/pay.js', hash: H2, refusedIntegrity: 'sha384-pinned', pageUrl: 'https://loja.example/retry', sessionId: 'x4', refusedAt: 'T7' }),
        // Another store's script: nothing of it here.
        flushed([{ scriptId: 'other', sightings: 1, sessions: 1, lastSeenAt: 'T8' }]),
      ],
      SCRIPT_HISTORY,
      [
        {
          _id: 'c1',
          org_id: 'o1',
          store_id: 's1',
          first_seen_at: 'T1',
          // The current content's sightings since it came back (T6) are in current_seen_at, not yet in its span.
          hashes: [
            { hash: H1, first_seen_at: 'T1', last_seen_at: 'T5' },
            { hash: H2, first_seen_at: 'T3', last_seen_at: 'T7' },
          ],
          current_hash: H1,
          current_seen_at: 'T6',
          pages: ['/checkout', '/pay/confirm', '/retry'],
          recommendations: [
            { policy_id: 'p1', policy_version: 1, action: 'authorize', justification: 'PSP', at: 'T1' },
            { policy_id: 'p1', policy_version: 2, action: 'needs_review', justification: 'Look', at: 'T2' },
          ],
        },
      ],
    );
  });

  it('starts the timeline at the first hash when the script was detected before its content was known', async () => {
    await expectReplayedTwice(ScriptHistoryProjection, [detected(null, 'T1'), sighted('T2'), changed(H1, null, 'T3'), sighted('T4')], SCRIPT_HISTORY, [
      { _id: 'c1', hashes: [{ hash: H1, first_seen_at: 'T3', last_seen_at: 'T3' }], current_hash: H1, current_seen_at: 'T4', pages: ['/checkout'] },
    ]);
  });

  it('records a sighting without reading the history', async () => {
    const store = new MemoryReadStore();
    const histories = store.collection(SCRIPT_HISTORY);
    const projection = new ScriptHistoryProjection();
    const context = { collection: <T extends AnyDocument>() => histories as unknown as ReadCollection<T> };
    await projection.handle(detected(H1, 'T1'), context);
    const reads = [jest.spyOn(histories, 'findOne'), jest.spyOn(histories, 'find'), jest.spyOn(histories, 'findFrozen'), jest.spyOn(histories, 'findOneFrozen')];
    await projection.handle(sighted('T2'), context);
    await projection.handle(stored('c1', 'ScriptHashLearned', { scriptId: 'c1', storeId: 's1', hash: 'sha256-one', hashSource: 'sri', sessionId: 'x3', seenAt: 'T3' }), context);
    for (const read of reads) expect(read).not.toHaveBeenCalled();
    expect(await histories.findOne({ _id: 'c1' })).toMatchObject({ current_seen_at: 'T3' });
  });

  it('reads the hash timeline with the current content seen up to its latest sighting', () => {
    const hashes = [
      { hash: H1, first_seen_at: 'T1', last_seen_at: 'T5' },
      { hash: H2, first_seen_at: 'T3', last_seen_at: 'T7' },
    ];
    expect(hashTimeline({ hashes, current_hash: H1, current_seen_at: 'T6' })).toEqual([{ hash: H1, first_seen_at: 'T1', last_seen_at: 'T6' }, hashes[1]]);
    // A late window's older sighting moves nothing back; none yet, the span as it is.
    expect(hashTimeline({ hashes, current_hash: H2, current_seen_at: 'T4' })).toEqual(hashes);
    expect(hashTimeline({ hashes, current_hash: H1, current_seen_at: null })).toEqual(hashes);
  });

  it('records pages up to the cap, each once, without their query', () => {
    const full = Array.from({ length: SCRIPT_HISTORY_PAGES_MAX }, (_, n) => `/p${n}`);
    expect(withPage(full, 'https://loja.example/new')).toEqual(full);
    expect(withPage(['/a'], 'https://loja.example/a?x=1')).toEqual(['/a']);
    expect(withPage(['/a'], 'not a url')).toEqual(['/a']);
  });
});
