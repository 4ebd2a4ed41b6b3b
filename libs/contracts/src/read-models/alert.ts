import type { toResource } from '../resource';

/**
 * Read model `alerts` (owner: alerts; readers: api-gateway for GET /alerts and the store status, reports).
 * A document is the spec's Alert resource, plus `org_id`, minus bookkeeping. docs/alerts.md describes each type.
 */
export const ALERTS = 'alerts';

export const ALERT_TYPES = [
  'SCRIPT_INTEGRITY_MISMATCH',
  'HEADER_CHANGED',
  'CSP_VIOLATION',
  'MALICIOUS_SCRIPT',
  'SENSITIVE_FIELD_ACCESS',
  'UNEXPECTED_IFRAME',
  'RECIPIENT_MISMATCH',
  'SDK_SILENT',
  'NEW_CONNECTION',
] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

/** Highest first: the order in which channels compare `min_severity`. */
export const ALERT_SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

export const ALERT_STATUSES = ['open', 'resolved'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

export interface AlertDocument {
  _id: string;
  org_id: string;
  store_id: string;
  type: AlertType;
  /** HEADER_CHANGED only: `added`, `removed` or `changed`. */
  change_type: string | null;
  severity: AlertSeverity;
  status: AlertStatus;
  /** What the alert is about, readably: a script URL, a header name, a blocked URI, an iframe origin, a payment method. */
  source: string | null;
  /** Path of the page it was seen on. */
  page: string | null;
  details: Record<string, unknown> | null;
  /** SHA-256 (hex) of type, store and subject: occurrences with the same fingerprint count on one open alert. */
  fingerprint: string;
  occurrences: number;
  /** Distinct sessions, counted exactly up to 1000, then no further. */
  sessions_count: number;
  first_seen_at: string;
  last_seen_at: string;
  resolved_at: string | null;
  resolved_by_label: string | null;
  note: string | null;
  snoozed_until: string | null;
  auto_resolved: boolean;
  created_at: string;
}

export type AlertResource = ReturnType<typeof toResource<AlertDocument>>;

/**
 * What the alerts service publishes, each with the Alert resource (severity included) as `data`. The notifier
 * turns them into the spec's webhook events alert.created, alert.resolved, integrity.changed, header.changed
 * and sdk.silent. A resolution by hand (PATCH) publishes nothing, as the spec says.
 */
export const ALERT_TOPICS = {
  created: 'alerts.alert.created',
  resolved: 'alerts.alert.resolved',
  integrityChanged: 'alerts.integrity.changed',
  headerChanged: 'alerts.header.changed',
  sdkSilent: 'alerts.sdk.silent',
} as const;
