import type { IntegrityStatus, ScriptStatus } from '../read-models/script';

export const PAGE_HISTORY_QUERIES = {
  scriptsOnPageAt: 'inventory.page.scripts-at',
} as const;

/**
 * At most this many of the store's scripts are looked at for one moment (the oldest first seen by then): each is
 * one script stream read from the start. A store with more says so (`truncated`) rather than answer slowly.
 */
export const PAGE_AS_OF_SCRIPT_LIMIT = 500;

/** `inventory.page.scripts-at`: the scripts on a store's payment page at a moment, from their events. */
export interface ScriptsOnPageAtRequest {
  orgId: string;
  storeId: string;
  /** The payment page's id (GET /stores/{id}'s `pages`). */
  pageId: string;
  /** An ISO 8601 instant. */
  at: string;
}

/** A script as its events left it at the moment asked about. */
export interface ScriptAtMoment {
  script_id: string;
  src: string;
  status: ScriptStatus;
  /** Its content then (the SDK's hash), null while none was known. */
  hash: string | null;
  authorized_hash: string | null;
  integrity_status: IntegrityStatus;
  first_seen_at: string;
  /** When its status or content last changed before the moment. */
  changed_at: string;
}

export interface ScriptsOnPageAtReply {
  store_id: string;
  page_id: string;
  url_pattern: string;
  at: string;
  /** Oldest first seen first. */
  scripts: ScriptAtMoment[];
  /** The store had more than PAGE_AS_OF_SCRIPT_LIMIT scripts by then: only the oldest of them were looked at. */
  truncated: boolean;
  limit: number;
}
