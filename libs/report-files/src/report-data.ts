import { REPORT_CSV_TABLES, type ReportCsvTable, type ReportLocale as Locale } from '@pss/contracts';

/**
 * The data of a PCI report snapshot (`data` of the Report snapshot resource, schema_version 2): what a shop hands
 * its assessor as evidence for PCI DSS v4.0 6.4.3 (inventory and authorization of every payment-page script,
 * with a written justification) and 11.6.1 (change and tamper detection of scripts and security headers, at
 * least weekly). Everything is as it stood at `scope.period_end`; `docs/reports.md` describes every field and
 * `docs/report-data.schema.json` is its JSON Schema. Field names are snake_case like the rest of the API.
 */
export const REPORT_SCHEMA_VERSION = 2;

/** The API's values (libs/contracts), under the names the renderers use. */
export type ReportLocale = Locale;
export type CsvTable = ReportCsvTable;
export const CSV_TABLES: readonly CsvTable[] = REPORT_CSV_TABLES;

export interface ReportData {
  meta: ReportMeta;
  scope: ReportScope;
  summary_643: Summary643;
  summary_1161: Summary1161;
  scripts: ReportScript[];
  headers: ReportHeader[];
  alerts: ReportAlert[];
  policies: ReportPolicy[];
  periodic_checks: PeriodicCheck[];
  data_access: DataAccess[];
  /** The busiest page paths the SDK reported from in the period (absent from snapshots made before it was added). */
  pages_observed?: PageObserved[];
  /** Where the payment pages sent data, beside the scripts (absent from snapshots made before it was added). */
  connections?: ReportConnection[];
}

export interface ReportMeta {
  report_id: string;
  /** `created_at` as GET /stores/{id} shows it (absent from snapshots made before it was added). */
  store: { id: string; name: string; org_id: string; timezone: string; status: string; created_at?: string };
  domain: string;
  schema_version: number;
  /** When the data was computed (the snapshot's created_at). */
  generated_at: string;
  locale: ReportLocale;
}

export interface ReportScope {
  period_start: string;
  period_end: string;
  /** The payment pages the store declared (url patterns), as of period_end. */
  payment_pages: string[];
  /** The requirements this evidence addresses. */
  requirements: ['6.4.3', '11.6.1'];
}

/** Requirement 6.4.3: every script inventoried, authorized with a justification, its integrity assured. */
export interface Summary643 {
  /** Scripts seen on the store's pages up to period_end. */
  total: number;
  authorized: number;
  blocked: number;
  /** needs_review, suspicious or malicious: awaiting a decision. */
  needs_review: number;
  /** Authorizations whose expiry passed before period_end (status went back to review). */
  expired: number;
}

/** Requirement 11.6.1: changes to scripts and security headers detected and alerted on. */
export interface Summary1161 {
  /** Change and tamper events detected in the period: the sum of `events_by_kind`. */
  events: number;
  /**
   * `events` by kind. Each detection counts once, where an alert groups every detection of one fingerprint, so
   * `events` is usually far above the alerts. Absent from snapshots made before it was added.
   */
  events_by_kind?: ChangeEvents;
  /** Alerts opened in the period. */
  alerts_total: number;
  /** Of those, still open at period_end. */
  alerts_open: number;
  /** Distinct page paths the SDK reported from in the period (`pages_observed` lists the busiest 100). */
  pages_observed?: number;
}

/** Change and tamper events of the period, one count per detection. */
export interface ChangeEvents {
  /** Scripts detected for the first time. */
  new_scripts: number;
  /** New content (hash) of a known script. */
  hash_changes: number;
  /** Security headers added, removed or changed, one per header. */
  header_changes: number;
  /** CSP violation reports. */
  csp_violations: number;
  /** Iframes from an origin the store does not expect. */
  unexpected_iframes: number;
  /** Payment recipients other than those the store pins. */
  recipient_mismatches: number;
}

export interface ReportScript {
  id: string;
  src: string;
  inline: boolean;
  /** first_party | known_third | unknown */
  party: string | null;
  category: string | null;
  vendor_id: string | null;
  /** Script status as of period_end. */
  status: string;
  integrity_status: string | null;
  current_hash: string | null;
  authorized_hash: string | null;
  sri_hash: string | null;
  integrity_attr: boolean | null;
  justification: string | null;
  authorization_method: string | null;
  authorized_by: string | null;
  authorized_at: string | null;
  expires_at: string | null;
  policy_id: string | null;
  policy_version: number | null;
  first_seen_at: string;
  last_seen_at: string;
  /** Content changes (new hashes) seen within the period. */
  hash_changes_in_period: number;
  /** Every decision on it up to period_end, oldest first. */
  decisions: Array<{ action: string; method: string; by: string; justification: string | null; at: string }>;
}

export interface ReportHeader {
  /** Page path. */
  page: string;
  /**
   * false: a path none of the store's payment pages' `url_pattern`s matches, which the SDK reported all the same
   * (any client may, with the public key); shown apart from the payment pages. Absent from snapshots made before.
   */
  declared_page?: boolean;
  name: string;
  /** The first value recorded (the baseline), null when the header was absent then. */
  baseline: string | null;
  /** The value as of period_end, null when absent. */
  last_value: string | null;
  baseline_at: string | null;
  /** Changes within the period, oldest first. */
  changes: Array<{ change_type: 'added' | 'removed' | 'changed'; old_value: string | null; new_value: string | null; at: string }>;
}

export interface ReportAlert {
  id: string;
  type: string;
  severity: string;
  /** Status as of period_end. */
  status: 'open' | 'resolved';
  source: string | null;
  page: string | null;
  occurrences: number;
  first_seen_at: string;
  last_seen_at: string;
  resolved_at: string | null;
  resolved_by_label: string | null;
  note: string | null;
}

export interface ReportPolicy {
  id: string;
  name: string;
  /** null: organization-level */
  store_id: string | null;
  version: number;
  mode: string;
  action: string;
  active: boolean;
  priority: number;
  is_default: boolean;
  /** Decisions this policy took on the store's scripts within the period. */
  decisions_in_period: number;
}

/**
 * One row per week (Monday 00:00 UTC to the next) overlapping the period from the store's creation on: proof of
 * "at least weekly". None when the store was created after the period.
 */
export interface PeriodicCheck {
  week_start: string;
  week_end: string;
  /** Distinct sessions behind `sdk_batches`, per flush window, summed. */
  sdk_sessions: number;
  /** Distinct client addresses behind `sdk_batches`, per flush window, summed (addresses themselves are never kept). */
  sdk_client_addresses: number;
  /** SDK batches that looked like page views (docs/decisions.md, issue 29): nothing else counts as monitoring. */
  sdk_batches: number;
  pages_monitored: number;
  header_checks: number;
  /** True when no page view was reported that week: a gap the assessor must see. */
  no_monitoring: boolean;
}

/** A page path the SDK reported from, counted by whole UTC hours like periodic_checks. */
export interface PageObserved {
  /** The path alone: no query or fragment. */
  page: string;
  /** SDK batches sent from it in the period. */
  batches: number;
}

/** An origin the payment pages sent requests to up to period_end: only the origin was ever reported. */
export interface ReportConnection {
  origin: string;
  /** How the pages reached it (fetch, xhr, beacon, image, form, websocket), in the order first seen. */
  via: string[];
  pages: string[];
  /** The URLs of the scripts seen on the stack of its requests. */
  initiators: string[];
  first_seen_at: string;
  last_seen_at: string;
}

/** Which script read which class of sensitive field, and how often (never a value). */
export interface DataAccess {
  script_id: string;
  src: string;
  /** card_number | cvv | expiry | document | other (the SDK's field classes) */
  field_class: string;
  accesses: number;
  script_authorized: boolean;
  first_at: string;
  last_at: string;
}
