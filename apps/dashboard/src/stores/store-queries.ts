import {
  ALERT_SEVERITIES,
  ALERTS,
  nextRun,
  ORGANIZATIONS,
  REPORT_SCHEDULES,
  REPORT_SNAPSHOTS,
  SCRIPTS,
  SDK_KEYS,
  STORES,
  type AlertSeverity,
  type OrganizationDocument,
  type ReportScheduleDocument,
  type ReportSnapshotDocument,
  type ScriptDocument,
  type SdkKeyDocument,
  type StoreDocument,
} from '@pss/contracts';
import { nextCursor, pageQuery, type Filter, type ReadStore } from '@pss/read-store';
import { sdkStatus } from '@pss/store-reads';
import { type InstallEvidence, sdkReportPattern } from './install-check';
import { AWAITING_DECISION, byNeed, type AwaitingDecision, type NeedsAction, type OrganizationSummary, type StoreSummary } from './store-summary';

/**
 * The store pages' reads, each scoped to the acting organization: the collections and filters of the API's
 * GET /stores, /stores/{id}/status, /scripts and /alerts. Counts are counts on indexed fields, never lists.
 */

/** Stores on the home page: pages of 20 by the API's cursor, newest first (GET /stores's order). */
export const HOME_STORES_PAGE = 20;
const STORE_ORDER = { field: '_id', direction: -1 as const };

export async function storesPage(readStore: ReadStore, orgId: string, cursor: string | undefined): Promise<{ stores: StoreDocument[]; nextCursor: string | null }> {
  const { query, sort, limit } = pageQuery({ org_id: orgId, status: { $ne: 'deleted' } }, STORE_ORDER, { limit: HOME_STORES_PAGE, cursor });
  const found = await readStore.collection<StoreDocument>(STORES).find(query, { sort, limit: limit + 1 });
  return { stores: found.slice(0, limit), nextCursor: nextCursor(found, limit, STORE_ORDER) };
}

/** The acting organization's store, or undefined: another organization's store is no store. */
export const storeOf = (readStore: ReadStore, orgId: string, storeId: string): Promise<StoreDocument | null> =>
  readStore.collection<StoreDocument>(STORES).findOne({ _id: storeId, org_id: orgId, status: { $ne: 'deleted' } });

/** Scripts awaiting a decision and open alerts by severity, of one store or (no `storeId`) a whole organization. */
export async function needsActionOf(readStore: ReadStore, scope: { org_id: string; store_id?: string }): Promise<NeedsAction> {
  const scripts = readStore.collection(SCRIPTS);
  const alerts = readStore.collection(ALERTS);
  const [decisions, open] = await Promise.all([
    Promise.all(AWAITING_DECISION.map((status) => scripts.count({ ...scope, status }))),
    Promise.all(ALERT_SEVERITIES.map((severity) => alerts.count({ ...scope, status: 'open', severity }))),
  ]);
  return {
    decisions: Object.fromEntries(AWAITING_DECISION.map((status, index) => [status, decisions[index]])) as Record<AwaitingDecision, number>,
    alerts: Object.fromEntries(ALERT_SEVERITIES.map((severity, index) => [severity, open[index]])) as Record<AlertSeverity, number>,
  };
}

/** A partner's child organizations, each with its active stores and what waits in it, most in need first. */
export async function childOrganizations(readStore: ReadStore, partnerId: string): Promise<OrganizationSummary[]> {
  const children = await readStore.collection<OrganizationDocument>(ORGANIZATIONS).find({ parent_org_id: partnerId }, { sort: { name: 1 } });
  const summaries = await Promise.all(
    children.map(async (child) => ({
      ...(await needsActionOf(readStore, { org_id: child._id })),
      organization: { id: child._id, name: child.name },
      stores: await readStore.collection(STORES).count({ org_id: child._id, status: 'active' }),
    })),
  );
  return byNeed(summaries, (summary) => summary.organization.name);
}

/** One store's line on the home page. */
export async function storeSummary(readStore: ReadStore, store: StoreDocument, now: Date): Promise<StoreSummary> {
  const scope = { org_id: store.org_id, store_id: store._id };
  const [action, sdk, [lastReport], schedule] = await Promise.all([
    needsActionOf(readStore, scope),
    sdkStatus(readStore, store, now),
    readStore.collection<ReportSnapshotDocument>(REPORT_SNAPSHOTS).find(scope, { sort: { sequence: -1, _id: -1 }, limit: 1 }),
    readStore.collection<ReportScheduleDocument>(REPORT_SCHEDULES).findOne({ _id: store._id, org_id: store.org_id }),
  ]);
  return {
    ...action,
    store: { id: store._id, name: store.name, domain: store.domain, timezone: store.timezone, status: store.status },
    sdk,
    lastReport: lastReport ? { id: lastReport._id, created_at: lastReport.created_at } : null,
    nextReport: schedule?.active ? nextRun(schedule.cadence, now).dueAt : null,
  };
}

/** The scripts a store's page views found, first seen first, as GET /scripts?store_id= reads them. */
export const INSTALL_CHECK_SCRIPTS = 50;

export const firstScripts = (readStore: ReadStore, store: StoreDocument): Promise<ScriptDocument[]> =>
  readStore.collection<ScriptDocument>(SCRIPTS).find({ org_id: store.org_id, store_id: store._id }, { sort: { first_seen_at: 1, _id: 1 }, limit: INSTALL_CHECK_SCRIPTS });

/** The ends of a store's rotated keys, latest first (the current key has none). */
export async function rotatedKeysValidUntil(readStore: ReadStore, store: StoreDocument): Promise<string[]> {
  const filter: Filter = { store_id: store._id, org_id: store.org_id, valid_until: { $ne: null } };
  const keys = await readStore.collection<SdkKeyDocument>(SDK_KEYS).find(filter, { sort: { valid_until: -1 }, limit: 1 });
  return keys.map((key) => key.valid_until!);
}

/** What the install check knows of a store now. */
export async function installEvidence(readStore: ReadStore, store: StoreDocument, sdkScriptUrl: string, now: Date): Promise<InstallEvidence> {
  const [sdk, sdkBlockedReports, rotated] = await Promise.all([
    sdkStatus(readStore, store, now),
    readStore.collection(ALERTS).count({ store_id: store._id, type: 'CSP_VIOLATION', status: 'open', org_id: store.org_id, source: { $regex: sdkReportPattern(sdkScriptUrl) } }),
    rotatedKeysValidUntil(readStore, store),
  ]);
  return { sdk, sdkBlockedReports, rotatedKeysValidUntil: rotated };
}
