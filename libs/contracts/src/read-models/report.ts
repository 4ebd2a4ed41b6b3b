import { DomainError } from '@pss/kernel';
import type { toResource } from '../resource';
import type { SnapshotOwnMeta } from './report-data-file';

/** Read model `report_snapshots` (owner: reports; reader: api-gateway). `data` lives in the file store. */
export const REPORT_SNAPSHOTS = 'report_snapshots';
/** Read model `report_schedules` (owner: reports; reader: api-gateway). */
export const REPORT_SCHEDULES = 'report_schedules';

export const REPORT_KINDS = ['weekly', 'monthly', 'on_demand'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];
export const REPORT_CADENCES = ['weekly', 'monthly'] as const;
export type ReportCadence = (typeof REPORT_CADENCES)[number];
export const REPORT_LOCALES = ['pt-BR', 'en'] as const;
export type ReportLocale = (typeof REPORT_LOCALES)[number];
export const REPORT_FORMATS = ['json', 'pdf', 'csv'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
export const REPORT_CSV_TABLES = ['scripts', 'connections', 'headers', 'alerts'] as const;
export type ReportCsvTable = (typeof REPORT_CSV_TABLES)[number];

/** The Report snapshot resource (spec), as stored; immutable once written. */
export interface ReportSnapshotDocument {
  _id: string;
  org_id: string;
  store_id: string;
  kind: ReportKind;
  period_start: string;
  period_end: string;
  locale: ReportLocale;
  schema_version: number;
  /** SHA-256 (hex) of the canonical JSON of `data` (docs/reports.md). */
  sha256: string | null;
  /** The sha256 of the store's snapshot before this one, null for the first: the evidence chain. */
  previous_sha256: string | null;
  /** Its place on the store's evidence chain, from 1: the chain's order (created_at is not, for snapshots made at once). */
  sequence: number;
  generated_by: string;
  has_pdf: boolean;
  csv_tables: ReportCsvTable[];
  created_at: string;
  /**
   * The file store key of `data` (not shown by the API): the shared body (report-data-file.ts) when `_body_sha256`
   * is set, else the canonical JSON of the whole data (snapshots made before bodies were shared).
   */
  _data_key: string;
  /** The sha256 of the body file, which names it; absent from snapshots made before bodies were shared. */
  _body_sha256?: string;
  /** When retention removed the data of this on-demand snapshot; its record stays on the chain. */
  _expired_at?: string;
  /** The store's domain when the snapshot was made: names its files (not shown by the API). */
  _domain: string;
}

export type ReportSnapshotResource = ReturnType<typeof toResource<ReportSnapshotDocument>>;

/** The Report schedule resource (spec), one per store; `_id` is the store id. */
export interface ReportScheduleDocument {
  _id: string;
  org_id: string;
  cadence: ReportCadence;
  locale: ReportLocale;
  active: boolean;
  updated_at: string | null;
  updated_by: string | null;
}

export interface ReportScheduleResource {
  store_id: string;
  cadence: ReportCadence;
  locale: ReportLocale;
  active: boolean;
  updated_at: string | null;
  updated_by: string | null;
}

export const scheduleResource = ({ _id, cadence, locale, active, updated_at, updated_by }: ReportScheduleDocument): ReportScheduleResource => ({
  store_id: _id,
  cadence,
  locale,
  active,
  updated_at,
  updated_by,
});

/** The snapshot's own meta members when its file is a shared body; null when the file holds the whole data. */
export const snapshotOwnMeta = (snapshot: Pick<ReportSnapshotDocument, '_id' | 'created_at' | '_body_sha256'>): SnapshotOwnMeta | null =>
  snapshot._body_sha256 ? { report_id: snapshot._id, generated_at: snapshot.created_at } : null;

/** 410 `gone` for an expired snapshot's data, in every format: its record stays listed on the chain. */
export const expiredSnapshotData = (expiredAt: string): DomainError =>
  new DomainError('gone', `The data of this on-demand snapshot was removed on ${expiredAt.slice(0, 10)} under the retention policy; its record and hashes remain on the evidence chain`);

/** The file store key of a snapshot's PDF. */
export const reportPdfKey = (snapshotId: string): string => `reports/${snapshotId}/report.pdf`;

/** What reports publishes (docs/events.md). */
export const REPORT_TOPICS = {
  ready: 'reports.report.ready',
  scheduleChanged: 'reports.schedule.changed',
} as const;

/** `reports.report.ready`: a scheduled snapshot is ready. The notifier turns it into the webhook event report.ready. */
export interface ReportReadyData {
  report_id: string;
  store_id: string;
  kind: ReportKind;
  period_start: string;
  period_end: string;
  locale: ReportLocale;
  sha256: string | null;
  /** API paths (under /api/v1) of the snapshot as JSON, PDF and each CSV table. */
  links: { json: string; pdf: string; csv: Record<ReportCsvTable, string> };
}

/** `reports.schedule.changed`: a store's schedule set (`schedule`) or deleted (`schedule: null`). */
export interface ReportScheduleChangedData {
  store_id: string;
  /** Grows with every change of this store's schedule: consumers keep the highest. */
  revision: number;
  schedule: ReportScheduleResource | null;
}
