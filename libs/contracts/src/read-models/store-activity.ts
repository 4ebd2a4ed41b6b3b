/**
 * Read model `store_activity` (owner: inventory's SDK ingestion): when a store's SDK last reported. Feeds
 * GET /stores/{id}/status and the SDK-silent watch.
 */
export const STORE_ACTIVITY = 'store_activity';

export interface StoreActivityDocument {
  _id: string;
  org_id: string;
  first_event_at: string | null;
  last_event_at: string | null;
  events_total: number;
}

/** The SDK counts as silent when it reported in the last 7 days but not in the last 24 hours. */
export const SDK_SILENT_AFTER_MS = 24 * 60 * 60 * 1000;
export const SDK_TRAFFIC_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
