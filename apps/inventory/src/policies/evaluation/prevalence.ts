import { SDK_TRAFFIC_WINDOW_MS } from '@pss/contracts';
import { DAY_MS } from '@pss/kernel';

/**
 * Prevalence of a host (the fact `prevalence_min` reads), pure. docs/policies.md gives the formula. It is a vote
 * that nobody can buy with store churn: only stores that are active and have been watched by their SDK for a
 * while vote, each organization family casts one vote however many stores it has, and the deciding family
 * (whose own sighting is what is being decided) neither votes nor counts among the voters.
 */

/** The SDK's reports must span this long: a store created, reported once and suspended has no say. */
export const MONITORING_HISTORY_MS = 7 * DAY_MS;
/** …and the store still reports: its last report is at most this old (the SDK-silent watch's window). */
export const STILL_REPORTING_MS = SDK_TRAFFIC_WINDOW_MS;

/** One store as prevalence sees it. */
export interface StoreStanding {
  storeId: string;
  /** Who votes for the store: its organization, or the partner a child organization belongs to. */
  voter: string;
  active: boolean;
  /** A staging store (`environment: staging`): its pages are any local host, so its history proves nothing. */
  staging?: boolean;
  /** From `store_activity`: the SDK's first and last reports (null: none). */
  firstEventAt: string | null;
  lastEventAt: string | null;
}

/** Everything prevalence is measured against for one decision. */
export interface Electorate {
  stores: readonly StoreStanding[];
  /** The voter of the deciding store's organization. */
  decidingVoter: string;
  now: Date;
}

/** A voter is a partner's organization for its children, else the organization itself. */
export const voterOf = (organization: { _id: string; parent_org_id: string | null }): string => organization.parent_org_id ?? organization._id;

/** Active, in production, reported over at least MONITORING_HISTORY_MS, and reported within STILL_REPORTING_MS. */
export function hasMonitoringHistory(store: StoreStanding, now: Date): boolean {
  if (!store.active || store.staging || store.firstEventAt === null || store.lastEventAt === null) return false;
  const first = Date.parse(store.firstEventAt);
  const last = Date.parse(store.lastEventAt);
  return last - first >= MONITORING_HISTORY_MS && now.getTime() - last <= STILL_REPORTING_MS;
}

/**
 * The share (0..1) of the other voters with a monitored store whose voters have a monitored store on which the
 * SDK saw the host (`hostStoreIds`: every store that ever reported it). 0 when no other voter qualifies.
 */
export function prevalence(hostStoreIds: readonly string[], electorate: Electorate): number {
  const monitored = electorate.stores.filter((store) => store.voter !== electorate.decidingVoter && hasMonitoringHistory(store, electorate.now));
  const voters = new Set(monitored.map((store) => store.voter));
  if (voters.size === 0) return 0;
  const sawHost = new Set(hostStoreIds);
  const votes = new Set(monitored.filter((store) => sawHost.has(store.storeId)).map((store) => store.voter));
  return votes.size / voters.size;
}
