import type { ReportCadence, ReportLocale, ReportScheduleResource, ReportSnapshotDocument, ReportSnapshotResource } from '../read-models/report';

export const REPORT_COMMANDS = {
  reportGenerate: 'reports.report.generate',
  reportPdf: 'reports.report.pdf',
  scheduleSet: 'reports.schedule.set',
  scheduleDelete: 'reports.schedule.delete',
} as const;

/** Spec, Limits: a report covers at most 366 days; by default the 7 days ending at period_end. */
export const REPORT_MAX_PERIOD_DAYS = 366;
export const REPORT_DEFAULT_PERIOD_DAYS = 7;
/** Spec, Limits: a signed PDF URL is valid one hour. */
export const SIGNED_PDF_URL_TTL_MS = 60 * 60 * 1000;

/**
 * `reports.report.generate` (GET /reports/pci): answered with the snapshot's document (without `data`, which is
 * in the file store under `_data_key`) and whether this request generated it. `reuse` false forces a new snapshot (regenerate=true, or no period given).
 */
export interface GenerateReportRequest {
  orgId: string;
  storeId: string;
  periodStart: string;
  periodEnd: string;
  locale: ReportLocale;
  reuse: boolean;
}

export interface GenerateReportReply {
  snapshot: ReportSnapshotDocument;
  generated: boolean;
}

/** `reports.report.pdf`: renders the snapshot's PDF into the file store if it is not there yet. */
export interface ReportPdfRequest {
  orgId: string;
  snapshotId: string;
}

export interface ReportPdfReply {
  /** A signed URL of the PDF, valid one hour (the `Location` of the 302). */
  location: string;
}

/** `reports.schedule.set` (POST /reports/pci/schedule). */
export interface SetReportScheduleRequest {
  orgId: string;
  storeId: string;
  cadence: ReportCadence;
  locale: ReportLocale;
  active: boolean;
}

export type SetReportScheduleReply = ReportScheduleResource;

/** `reports.schedule.delete` (DELETE /reports/pci/schedule). */
export interface DeleteReportScheduleRequest {
  orgId: string;
  storeId: string;
}

/** What the admin CLI's `reports run-schedule --at` prints: the snapshots the scheduled job made at `at`. */
export interface RunReportScheduleReply {
  at: string;
  snapshots: Array<Pick<ReportSnapshotResource, 'id' | 'store_id' | 'kind' | 'period_start' | 'period_end' | 'sha256'>>;
}
