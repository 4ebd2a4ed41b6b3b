/**
 * Read model `deliveries` (owner: notifier; readers: the dashboard, the admin CLI): each channel's last 50
 * deliveries, shown for 90 days (spec, Delivery). The API does not expose it.
 */
export const DELIVERIES = 'deliveries';

export const DELIVERY_HISTORY_SIZE = 50;
export const DELIVERY_HISTORY_DAYS = 90;

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/**
 * What a failed webhook attempt's `error` may say (besides `http_<status>: …`), in the delivery history, the logs and
 * the answer of POST /webhooks/{id}/test. Fixed words, never the error's own message: that held OpenSSL internals
 * (memory addresses, source paths), the addresses internal names resolve to, and which ports of an allowed host
 * are open. The dashboard says each in the person's language.
 */
export const ATTEMPT_ERRORS = {
  timeout: 'timeout',
  tls: 'tls_error',
  refused: 'connection_refused',
  dns: 'dns_error',
  blocked: 'blocked_address',
} as const;

export interface DeliveryDocument {
  /** Also the `X-Service-Delivery` header: one per channel and event, the same across retries. */
  _id: string;
  org_id: string;
  channel_id: string;
  /** The envelope's `evt_…` id. */
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  /** Attempts made and answered (or timed out) so far. */
  attempts: number;
  last_error: string | null;
  /** When the next retry is due; null unless a retry is scheduled. */
  next_attempt_at: string | null;
  /** The last answered attempt's HTTP status (from `http_<status>` errors too); null for e-mail, timeouts, network errors. */
  status_code?: number | null;
  /** How long the last attempt took, from its start to its outcome. */
  duration_ms?: number | null;
  /** When the attempt under way (or the last one) started. */
  attempt_started_at?: string | null;
  created_at: string;
  updated_at: string;
}
