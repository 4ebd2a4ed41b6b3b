import { MAX_CONNECTION_INITIATORS, MAX_CONNECTION_PAGES, type ConnectionVia } from '@pss/contracts';
import type { Decider } from '@pss/kernel';
import type { ConnectionEvent, Initiator, UnauthorizedRead } from './connection.events';

/**
 * How fine a connection's last-seen time is: a sighting that adds nothing records an event only this long after
 * the last. Every page view reports the checkout's destinations; a stream per page view would be the cost.
 */
export const CONNECTION_SEEN_REFRESH_MS = 5 * 60_000;

export interface ObserveConnection {
  connectionId: string;
  storeId: string;
  orgId: string;
  origin: string;
  via: ConnectionVia;
  page: string;
  pageUrl: string;
  sessionId: string;
  initiator: Initiator | null;
  /** A read of the page view by a script not authorized, as inventory knows it when the connection arrives. */
  unauthorizedRead: UnauthorizedRead | null;
  at: Date;
}

export interface ConnectionState {
  detected: boolean;
  vias: ConnectionVia[];
  pages: string[];
  initiators: string[];
  lastSeenAt: number;
}

/**
 * A store's connection to one origin. The first sighting detects it (a destination never seen on a payment page:
 * the alert's cause); later ones add a page, an initiator or a way of reaching it, each kept up to a bound, or
 * only move its last-seen time when CONNECTION_SEEN_REFRESH_MS has passed.
 */
export const connectionDecider: Decider<ConnectionState, ObserveConnection, ConnectionEvent> = {
  initialState: () => ({ detected: false, vias: [], pages: [], initiators: [], lastSeenAt: 0 }),
  decide(command, state) {
    const { connectionId, storeId, orgId, origin, via } = command;
    const at = command.at.toISOString();
    if (!state.detected) {
      const { page, pageUrl, sessionId, initiator, unauthorizedRead } = command;
      return [{ type: 'ConnectionDetected', data: { connectionId, storeId, orgId, origin, via, page, initiator, at, pageUrl, sessionId, afterUnauthorizedRead: unauthorizedRead } }];
    }
    const page = !state.pages.includes(command.page) && state.pages.length < MAX_CONNECTION_PAGES ? command.page : null;
    const initiator =
      command.initiator && !state.initiators.includes(command.initiator.scriptId) && state.initiators.length < MAX_CONNECTION_INITIATORS ? command.initiator : null;
    const news = page !== null || initiator !== null || !state.vias.includes(via);
    if (!news && command.at.getTime() - state.lastSeenAt < CONNECTION_SEEN_REFRESH_MS) return [];
    return [{ type: 'ConnectionSeen', data: { connectionId, storeId, orgId, origin, via, page, initiator, at } }];
  },
  evolve(state, { data }) {
    return {
      detected: true,
      vias: state.vias.includes(data.via) ? state.vias : [...state.vias, data.via],
      pages: data.page === null || state.pages.includes(data.page) ? state.pages : [...state.pages, data.page],
      initiators: data.initiator === null || state.initiators.includes(data.initiator.scriptId) ? state.initiators : [...state.initiators, data.initiator.scriptId],
      lastSeenAt: Math.max(state.lastSeenAt, Date.parse(data.at)),
    };
  },
};
