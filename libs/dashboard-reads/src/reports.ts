import { REPORT_SCHEDULES, REPORT_SNAPSHOTS, type ReportScheduleDocument, type ReportSnapshotDocument } from '@pss/contracts';
import { nextCursor, pageQuery, type PageOrder, type ReadStore } from '@pss/read-store';

/** A store's list is its evidence chain, newest first by place on it, as GET /reports/pci/snapshots?store_id= pages it. */
const CHAIN_ORDER: PageOrder = { field: 'sequence', direction: -1 };

export interface SnapshotPage {
  snapshots: ReportSnapshotDocument[];
  next_cursor: string | null;
}

/** A page of a store's snapshots in chain order (the caller checked the store is the organization's). */
export async function listStoreSnapshots(readStore: ReadStore, orgId: string, storeId: string, page: { cursor?: string; limit?: number } = {}): Promise<SnapshotPage> {
  const { query, sort, limit } = pageQuery({ org_id: orgId, store_id: storeId }, CHAIN_ORDER, page);
  const docs = await readStore.collection<ReportSnapshotDocument>(REPORT_SNAPSHOTS).find(query, { sort, limit: limit + 1 });
  return { snapshots: docs.slice(0, limit), next_cursor: nextCursor(docs, limit, CHAIN_ORDER) };
}

/** One snapshot of the organization, or null (another organization's is as missing as none). */
export const findSnapshot = (readStore: ReadStore, orgId: string, snapshotId: string): Promise<ReportSnapshotDocument | null> =>
  readStore.collection<ReportSnapshotDocument>(REPORT_SNAPSHOTS).findOne({ _id: snapshotId, org_id: orgId });

/** The store's schedule, or null; a deleted one is kept by the read model as a tombstone, and is none. */
export const storeSchedule = (readStore: ReadStore, orgId: string, storeId: string): Promise<ReportScheduleDocument | null> =>
  readStore.collection<ReportScheduleDocument>(REPORT_SCHEDULES).findOne({ _id: storeId, org_id: orgId, _deleted: { $ne: true } });
