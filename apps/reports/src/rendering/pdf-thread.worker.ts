import { parentPort } from 'node:worker_threads';
import { reportDataJson, type SnapshotOwnMeta } from '@pss/contracts';
import type { ReportData } from '@pss/report-files';
import { renderReportPdf, type ReportPdfSnapshot } from './report-pdf';

/** What the reports service asks of its PDF thread: a snapshot's stored data, as read from the file store. */
export interface PdfJob {
  id: number;
  stored: string;
  own: SnapshotOwnMeta | null;
  /** All but the time zone, which is the data's store's. */
  snapshot: Omit<ReportPdfSnapshot, 'timezone'>;
}

export type PdfOutcome = { id: number; pdf: Uint8Array } | { id: number; error: string };

/** Put together, parsed and rendered here: megabytes of JSON and seconds of PDFKit never hold the service's loop. */
async function render({ stored, own, snapshot }: PdfJob): Promise<Uint8Array> {
  const data = JSON.parse(await reportDataJson(stored, own)) as ReportData;
  return renderReportPdf(data, { ...snapshot, timezone: data.meta.store.timezone });
}

parentPort?.on('message', (job: PdfJob) => {
  render(job).then(
    (pdf) => parentPort?.postMessage({ id: job.id, pdf } satisfies PdfOutcome),
    (error: Error) => parentPort?.postMessage({ id: job.id, error: error.message } satisfies PdfOutcome),
  );
});
