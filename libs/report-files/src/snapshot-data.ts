import { reportDataJson, snapshotOwnMeta, type ReportSnapshotDocument } from '@pss/contracts';
import type { FileStore } from '@pss/files';
import { notFound } from '@pss/kernel';
import { parseJsonInSlices } from './canonical-json';
import type { ReportData } from './report-data';

/**
 * The canonical JSON of a snapshot's data: the stored body with the snapshot's own meta members put back. One
 * reader for the API and the dashboard, so both serve the very bytes the snapshot's sha256 is of.
 */
export async function snapshotDataJson(files: FileStore, snapshot: ReportSnapshotDocument): Promise<string> {
  const file = await files.get(snapshot._data_key);
  if (!file) throw notFound('Report data');
  return reportDataJson(file.bytes.toString('utf8'), snapshotOwnMeta(snapshot));
}

/** The snapshot's data, parsed in slices (a year's report is megabytes: one parse would hold the event loop). */
export async function snapshotData(files: FileStore, snapshot: ReportSnapshotDocument): Promise<ReportData> {
  return parseJsonInSlices<ReportData>(await snapshotDataJson(files, snapshot));
}
