import { REPORT_SNAPSHOTS, type ReportSnapshotDocument } from '@pss/contracts';
import { canHandle } from '@pss/event-store';
import { readModelProjection } from '@pss/projections';
import type { SnapshotEvent, SnapshotRecorded } from './snapshot.decider';

const isSnapshotEvent = canHandle<SnapshotEvent>({ ReportSnapshotRecorded: true, ReportSnapshotExpired: true });

/** A snapshot's document is written whole, then only marked expired: handling either again changes nothing. */
export class SnapshotProjection extends readModelProjection({
  name: REPORT_SNAPSHOTS,
  streamPrefixes: ['report-'],
  collections: {
    [REPORT_SNAPSHOTS]: [
      { key: { org_id: 1, created_at: -1, _id: -1 } },
      { key: { store_id: 1, period_start: 1, period_end: 1 } },
      { key: { org_id: 1, store_id: 1, sequence: -1, _id: -1 } },
      // Retention's look for on-demand snapshots past their time.
      { key: { kind: 1, created_at: 1 } },
    ],
  },
  canHandle: isSnapshotEvent,
  async evolve(event, context) {
    const snapshots = context.collection<ReportSnapshotDocument>(REPORT_SNAPSHOTS);
    if (event.type === 'ReportSnapshotRecorded') await snapshots.upsert(snapshotDocument(event.data, event.revision));
    if (event.type === 'ReportSnapshotExpired') await snapshots.updateOne({ _id: event.data.snapshotId }, { $set: { _expired_at: event.data.expiredAt } });
  },
}) {}

/**
 * The read model's document of a recorded snapshot. `revision`: its event's on the chain's stream, for snapshots
 * recorded before `sequence` was (the chain is appended with the expected revision, so they are the same).
 */
export function snapshotDocument(data: SnapshotRecorded['data'], revision?: number): ReportSnapshotDocument {
  return {
    _id: data.snapshotId,
    org_id: data.orgId,
    store_id: data.storeId,
    kind: data.kind,
    period_start: data.periodStart,
    period_end: data.periodEnd,
    locale: data.locale,
    schema_version: data.schemaVersion,
    sha256: data.sha256,
    previous_sha256: data.previousSha256,
    sequence: data.sequence ?? (revision ?? 0) + 1,
    generated_by: data.generatedBy,
    has_pdf: data.hasPdf,
    csv_tables: data.csvTables,
    created_at: data.createdAt,
    _data_key: data.dataKey,
    ...(data.bodySha256 ? { _body_sha256: data.bodySha256 } : {}),
    _domain: data.domain,
  };
}
