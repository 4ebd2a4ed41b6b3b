import { expectReplayedTwice, recorded, replayedTwice } from '@pss/testkit';
import { SDK_WATCH, SdkWatchProjection } from './sdk-watch.projection';

/** Every watch and activity event handled twice in a row, then the whole log again: the same view as once. */
describe('SdkWatchProjection replayed twice', () => {
  it('keeps the domain, the latest SDK activity, and a stop that later activity does not undo', async () => {
    const events = [
      recorded('sdkwatch-s1', 'StoreWatchStarted', { storeId: 's1', orgId: 'o1', domain: 'loja.example', at: 'T0' }),
      recorded('sdkseen-s1', 'SdkActivityRecorded', { storeId: 's1', orgId: 'o1', lastEventAt: '2026-11-23T10:15:00.000Z' }),
      // A late report of older activity must not move the time back.
      recorded('sdkseen-s1', 'SdkActivityRecorded', { storeId: 's1', orgId: 'o1', lastEventAt: '2026-11-23T10:00:00.000Z' }),
      recorded('sdkwatch-s1', 'StoreWatchStopped', { storeId: 's1', orgId: 'o1', at: 'T2' }),
      recorded('sdkseen-s1', 'SdkActivityRecorded', { storeId: 's1', orgId: 'o1', lastEventAt: '2026-11-23T11:00:00.000Z' }),
    ];
    await expectReplayedTwice(SdkWatchProjection, events, SDK_WATCH, [
      { _id: 's1', org_id: 'o1', domain: 'loja.example', suspended: true, last_event_at: '2026-11-23T11:00:00.000Z' },
    ]);
  });

  it('records activity of a store whose creation it never heard of, without a domain', async () => {
    const events = [recorded('sdkseen-s2', 'SdkActivityRecorded', { storeId: 's2', orgId: 'o1', lastEventAt: '2026-11-23T10:00:00.000Z' })];
    const twice = await replayedTwice(SdkWatchProjection, events);
    const [watch] = twice[SDK_WATCH];
    expect(watch).toEqual(expect.objectContaining({ _id: 's2', org_id: 'o1', last_event_at: '2026-11-23T10:00:00.000Z' }));
    expect(watch).not.toHaveProperty('domain');
  });
});
