import type { ConnectionVia } from '@pss/contracts';
import { deterministicUuid, type DomainEvent } from '@pss/kernel';

/** A script on the stack of a request, by its id in the inventory and its URL. */
export interface Initiator {
  scriptId: string;
  src: string;
}

/** A card-field read of the same page view by a script that is not authorized: what makes a new destination critical. */
export interface UnauthorizedRead extends Initiator {
  field: string;
}

export interface ConnectionSighting {
  connectionId: string;
  storeId: string;
  orgId: string;
  origin: string;
  via: ConnectionVia;
  /** The page's path: null on a later sighting from a page already kept, or past MAX_CONNECTION_PAGES. */
  page: string | null;
  /** Null when no script was on the stack, or it is one already kept, or past MAX_CONNECTION_INITIATORS. */
  initiator: Initiator | null;
  at: string;
}

export type ConnectionEvent =
  | DomainEvent<'ConnectionDetected', ConnectionSighting & { pageUrl: string; sessionId: string; afterUnauthorizedRead: UnauthorizedRead | null }>
  | DomainEvent<'ConnectionSeen', ConnectionSighting>;

/** One connection per store and origin: every page view that reaches the origin reports the same id. */
export const connectionIdFor = (storeId: string, origin: string): string => deterministicUuid('connection', storeId, origin);

export const connectionStream = (connectionId: string): string => `connection-${connectionId}`;
