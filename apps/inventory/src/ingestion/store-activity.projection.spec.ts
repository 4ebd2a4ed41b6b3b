import { STORE_ACTIVITY, USAGE_COUNTERS } from '@pss/contracts';
import { expectReplayedTwice, project, recorded, replayedTwice } from '@pss/testkit';
import type { SightingsEvent } from './sightings';
import { StoreActivityProjection } from './store-activity.projection';

const flushed = (storeId: string, orgId: string, firstEventAt: string, lastEventAt: string, observations: number) => {
  const data: SightingsEvent['data'] = { storeId, orgId, firstEventAt, lastEventAt, batches: 1, observations, scripts: [] };
  return recorded(`sightings-${storeId}`, 'SightingsFlushed', data);
};

/** Every flush handled twice in a row, then the whole log again: activity and monthly usage counted once. */
describe('StoreActivityProjection replayed twice', () => {
  it('keeps each store’s first and last SDK event and its total, and each organization’s events per month', async () => {
    const events = [
      flushed('s1', 'o1', '2026-10-31T23:59:00.000Z', '2026-10-31T23:59:30.000Z', 4),
      flushed('s1', 'o1', '2026-11-01T00:00:10.000Z', '2026-11-01T00:00:40.000Z', 6),
      flushed('s2', 'o1', '2026-11-02T10:00:00.000Z', '2026-11-02T10:00:20.000Z', 5),
      // A window that closed late, with older events: neither first nor last moves, the total does.
      flushed('s1', 'o1', '2026-10-31T23:00:00.000Z', '2026-10-31T23:00:30.000Z', 1),
    ];
    const twice = await replayedTwice(StoreActivityProjection, events);
    expect(twice[STORE_ACTIVITY]).toEqual([
      expect.objectContaining({ _id: 's1', org_id: 'o1', first_event_at: '2026-10-31T23:00:00.000Z', last_event_at: '2026-11-01T00:00:40.000Z', events_total: 11 }),
      expect.objectContaining({ _id: 's2', org_id: 'o1', first_event_at: '2026-11-02T10:00:00.000Z', last_event_at: '2026-11-02T10:00:20.000Z', events_total: 5 }),
    ]);
    expect(twice[USAGE_COUNTERS]).toEqual([
      expect.objectContaining({ _id: 'o1:2026-10', org_id: 'o1', month: '2026-10', events: 5 }),
      expect.objectContaining({ _id: 'o1:2026-11', org_id: 'o1', month: '2026-11', events: 11 }),
    ]);
  });

  it('says when page views came in, never what other batches did; every batch is usage', async () => {
    const window = (firstEventAt: string, lastEventAt: string, observations: number, pageViews: NonNullable<SightingsEvent['data']['pageViews']>) => {
      const data: SightingsEvent['data'] = { storeId: 's1', orgId: 'o1', firstEventAt, lastEventAt, batches: 20, observations, scripts: [], pages: [], pageViews };
      return recorded('sightings-s1', 'SightingsFlushed', data);
    };
    const none = { batches: 0, sessions: 0, clients: 0, firstAt: null, lastAt: null };
    const heartbeats = [window('2026-11-02T10:00:00.000Z', '2026-11-02T10:00:04.000Z', 0, none), window('2026-11-02T10:00:05.000Z', '2026-11-02T10:00:09.000Z', 3, none)];
    const quiet = await project(new StoreActivityProjection(), heartbeats, 'twice');
    expect(quiet[STORE_ACTIVITY]).toEqual([expect.objectContaining({ _id: 's1', events_total: 3 })]);
    expect(quiet[STORE_ACTIVITY][0]).not.toHaveProperty('last_event_at');

    const viewed = window('2026-11-02T10:00:10.000Z', '2026-11-02T10:00:14.000Z', 5, {
      batches: 2, sessions: 2, clients: 2, firstAt: '2026-11-02T10:00:11.000Z', lastAt: '2026-11-02T10:00:12.000Z',
    });
    const events = [...heartbeats, viewed];
    await expectReplayedTwice(StoreActivityProjection, events, STORE_ACTIVITY, [
      { _id: 's1', first_event_at: '2026-11-02T10:00:11.000Z', last_event_at: '2026-11-02T10:00:12.000Z', events_total: 8 },
    ]);
  });
});
