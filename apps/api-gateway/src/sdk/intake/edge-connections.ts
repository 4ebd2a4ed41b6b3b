import type { ConnectionObservation } from '@pss/contracts';
import { LruCache } from '@pss/kernel';

/** Connections the edge remembers forwarding (a key of some 150 bytes each: about 15 MB). */
export const EDGE_CONNECTIONS_CACHED = 100_000;
/**
 * After this, a connection goes to inventory again: its last-seen time is as fine as this, and so is the
 * connection decider's (CONNECTION_SEEN_REFRESH_MS), so one of them is always the bound.
 */
export const EDGE_CONNECTIONS_FRESH_MS = 5 * 60_000;

/**
 * The connections each store page reported through this gateway lately, by origin, how and initiator: every page
 * view reports the checkout's usual destinations again, and only one that is new, or not forwarded for a while,
 * is worth a bus hop.
 */
export class EdgeConnections {
  private readonly forwarded = new LruCache<string, number>(EDGE_CONNECTIONS_CACHED);

  fresh(storeId: string, pageUrl: string, connection: ConnectionObservation, now: number): boolean {
    const until = this.forwarded.get(connectionKey(storeId, pageUrl, connection));
    return until !== undefined && until > now;
  }

  remember(storeId: string, pageUrl: string, connection: ConnectionObservation, now: number): void {
    this.forwarded.set(connectionKey(storeId, pageUrl, connection), now + EDGE_CONNECTIONS_FRESH_MS);
  }
}

/** Inventory records a connection's pages by path: a query string is the same page. */
const connectionKey = (storeId: string, pageUrl: string, { origin, via, initiator }: ConnectionObservation): string =>
  `${storeId} ${new URL(pageUrl).pathname} ${origin} ${via} ${initiator ?? ''}`;
