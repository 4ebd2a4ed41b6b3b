import { DAY_MS } from '@pss/kernel';
import { hasMonitoringHistory, prevalence, voterOf, type StoreStanding } from './prevalence';

const now = new Date('2026-06-20T12:00:00.000Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();

/** A store whose SDK has reported for two weeks and still does, unless told otherwise. */
const store = (storeId: string, voter: string, change: Partial<StoreStanding> = {}): StoreStanding => ({
  storeId,
  voter,
  active: true,
  firstEventAt: daysAgo(14),
  lastEventAt: daysAgo(1),
  ...change,
});
const measure = (hostStoreIds: string[], stores: StoreStanding[], decidingVoter = 'victim') => prevalence(hostStoreIds, { stores, decidingVoter, now });

describe('prevalence of a host', () => {
  it('is the share of the other organizations with a monitored store that saw the host', () => {
    const stores = [store('a1', 'a'), store('b1', 'b'), store('c1', 'c'), store('d1', 'd')];
    expect(measure(['a1', 'b1'], stores)).toBe(0.5);
    expect(measure([], stores)).toBe(0);
    expect(measure(['a1', 'b1', 'c1', 'd1'], stores)).toBe(1);
  });

  it('gives a suspended or deleted store no vote and no seat, whatever it reported', () => {
    const churned = Array.from({ length: 20 }, (_, i) => store(`x${i}`, 'attacker', { active: false }));
    const stores = [store('a1', 'a'), ...churned];
    expect(measure(churned.map((s) => s.storeId), stores)).toBe(0);
    expect(measure(['a1'], stores)).toBe(1);
  });

  it('gives a staging store no vote and no seat: its pages may be any local host, so its history proves nothing', () => {
    const stores = [store('a1', 'a'), store('s1', 'staged', { staging: true })];
    expect(measure(['s1'], stores)).toBe(0);
    expect(measure(['a1'], stores)).toBe(1);
  });

  it('gives one organization one vote however many stores saw the host', () => {
    const stores = [store('a1', 'a'), store('a2', 'a'), store('a3', 'a'), store('b1', 'b'), store('c1', 'c')];
    expect(measure(['a1', 'a2', 'a3'], stores)).toBeCloseTo(1 / 3);
  });

  it("counts a partner's child organizations as the partner's one vote", () => {
    expect(voterOf({ _id: 'child', parent_org_id: 'partner' })).toBe('partner');
    expect(voterOf({ _id: 'shop', parent_org_id: null })).toBe('shop');
  });

  it('leaves the deciding organization out: its own stores, active or churned, neither vote nor dilute', () => {
    const stores = [store('v1', 'victim'), store('v2', 'victim'), store('v3', 'victim', { active: false }), store('a1', 'a'), store('b1', 'b')];
    expect(measure(['v1', 'v2', 'v3', 'a1'], stores)).toBe(0.5);
    expect(measure(['v1'], [store('v1', 'victim')])).toBe(0);
  });

  it('gives a store no vote until its SDK has reported over a week, and none once it has gone quiet for a week', () => {
    const fresh = store('a1', 'a', { firstEventAt: daysAgo(6.9), lastEventAt: daysAgo(0) });
    const quiet = store('b1', 'b', { firstEventAt: daysAgo(30), lastEventAt: daysAgo(7.1) });
    const silent = store('c1', 'c', { firstEventAt: null, lastEventAt: null });
    const watched = store('d1', 'd', { firstEventAt: daysAgo(7), lastEventAt: daysAgo(0) });
    expect([fresh, quiet, silent, watched].map((s) => hasMonitoringHistory(s, now))).toEqual([false, false, false, true]);
    expect(measure(['a1', 'b1', 'c1'], [fresh, quiet, silent, watched])).toBe(0);
    expect(measure(['d1'], [fresh, quiet, silent, watched])).toBe(1);
  });
});
