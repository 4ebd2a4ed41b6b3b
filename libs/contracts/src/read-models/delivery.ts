/**
 * Read model `deliveries` (owner: notifier; readers: the dashboard, the admin CLI): each channel's last 50
 * deliveries, shown for 90 days (spec, Delivery). The API does not expose it.
 */
export const DELIVERIES = 'deliveries';

export const DELIVERY_HISTORY_SIZE = 50;
export const DELIVERY_HISTORY_DAYS = 90;

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

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
