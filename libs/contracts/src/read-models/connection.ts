import type { ConnectionVia } from '../sdk/connections';

/**
 * Read model `connections` (owner: inventory; readers: GET /connections, the store's CSP, reports): each origin a
 * store's payment pages sent requests to, with where and by what. `pages` and `initiators` are bounded by the
 * connection decider (MAX_CONNECTION_PAGES, MAX_CONNECTION_INITIATORS).
 */
export const CONNECTIONS = 'connections';

/** A script seen on the stack of a request to the origin: its URL and its id in the inventory. */
export interface ConnectionInitiator {
  script_id: string;
  src: string;
}

export interface ConnectionDocument {
  _id: string;
  org_id: string;
  store_id: string;
  /** `scheme://host[:port]`, as browsers serialize it. */
  origin: string;
  /** How the pages reached it, in the order first seen. */
  via: ConnectionVia[];
  /** Page paths it was seen from, in the order first seen. */
  pages: string[];
  initiators: ConnectionInitiator[];
  first_seen_at: string;
  last_seen_at: string;
}

export const MAX_CONNECTION_PAGES = 50;
export const MAX_CONNECTION_INITIATORS = 20;
