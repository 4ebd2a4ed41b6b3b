import { randomUUID } from 'node:crypto';
import type { PageViewSightings, StoreSightings } from '@pss/contracts';

/**
 * Distinct sessions counted per script and window at most: beyond, the count says "at least this many". The
 * window holds one entry per store and script seen in a flush interval, and the SDK's per-store rate limit
 * bounds the sessions a store can send in it; this cap keeps a window bounded whatever the limits are set to.
 */
export const MAX_SESSIONS_COUNTED = 10_000;
/**
 * Distinct page paths counted per store and window at most: a page may send any path, and the reports show the
 * busiest. Batches from further paths still count in `batches`, under no page.
 */
export const MAX_PAGES_COUNTED = 200;

/** A batch that looks like a page view (see page-view.ts): where it came from. */
export interface PageVisit {
  /** The page's path alone: a query may carry a shopper's data. */
  path: string;
  sessionId: string;
  /** A keyed hash of the client's address, never the address. */
  client: string;
}

interface PageViews {
  batches: number;
  sessions: Set<string>;
  clients: Set<string>;
  firstAt: number;
  lastAt: number;
}

interface StoreWindow {
  orgId: string;
  firstEventAt: number;
  lastEventAt: number;
  batches: number;
  observations: number;
  scripts: Map<string, { sightings: number; sessions: Set<string>; lastSeenAt: number }>;
  /** Page-view batches by page path. */
  pages: Map<string, number>;
  pageViews: PageViews;
}

/**
 * Repeated sightings of known scripts are not an event each: they are counted here, at the edge, and recorded
 * once per store per flush window (last_seen_at, counters, sessions, pages, SDK activity). Pure bookkeeping.
 */
export class SightingBuffer {
  private windows = new Map<string, StoreWindow>();

  /**
   * One batch; `visit` when it looks like a page view. Any batch counts as usage; only page views count as
   * monitoring (and name pages): the public key lets anyone send the rest.
   */
  recordBatch(storeId: string, orgId: string, observations: number, at: number, visit: PageVisit | null): void {
    const window = this.window(storeId, orgId, at);
    window.batches += 1;
    window.observations += observations;
    if (!visit) return;
    const views = window.pageViews;
    views.batches += 1;
    if (views.sessions.size < MAX_SESSIONS_COUNTED) views.sessions.add(visit.sessionId);
    if (views.clients.size < MAX_SESSIONS_COUNTED) views.clients.add(visit.client);
    views.firstAt = Math.min(views.firstAt, at);
    views.lastAt = Math.max(views.lastAt, at);
    const counted = window.pages.get(visit.path);
    if (counted !== undefined) window.pages.set(visit.path, counted + 1);
    else if (window.pages.size < MAX_PAGES_COUNTED) window.pages.set(visit.path, 1);
  }

  recordScript(storeId: string, orgId: string, scriptId: string, sessionId: string, at: number): void {
    const window = this.window(storeId, orgId, at);
    let script = window.scripts.get(scriptId);
    if (!script) {
      script = { sightings: 0, sessions: new Set<string>(), lastSeenAt: 0 };
      window.scripts.set(scriptId, script);
    }
    script.sightings += 1;
    if (script.sessions.size < MAX_SESSIONS_COUNTED) script.sessions.add(sessionId);
    if (at > script.lastSeenAt) script.lastSeenAt = at;
  }

  get size(): number {
    return this.windows.size;
  }

  /** Hands over everything counted so far and starts a new window. */
  drain(): StoreSightings[] {
    const drained = this.windows;
    this.windows = new Map();
    return [...drained].map(([storeId, window]) => ({
      storeId,
      orgId: window.orgId,
      windowId: randomUUID(),
      firstEventAt: new Date(window.firstEventAt).toISOString(),
      lastEventAt: new Date(window.lastEventAt).toISOString(),
      batches: window.batches,
      observations: window.observations,
      scripts: [...window.scripts].map(([scriptId, script]) => ({
        scriptId,
        sightings: script.sightings,
        sessions: script.sessions.size,
        lastSeenAt: new Date(script.lastSeenAt).toISOString(),
      })),
      pages: [...window.pages].map(([path, batches]) => ({ path, batches })),
      pageViews: pageViewsOf(window.pageViews),
    }));
  }

  private window(storeId: string, orgId: string, at: number): StoreWindow {
    let window = this.windows.get(storeId);
    if (!window) {
      const pageViews = { batches: 0, sessions: new Set<string>(), clients: new Set<string>(), firstAt: Infinity, lastAt: -Infinity };
      window = { orgId, firstEventAt: at, lastEventAt: at, batches: 0, observations: 0, scripts: new Map(), pages: new Map(), pageViews };
      this.windows.set(storeId, window);
    }
    if (at < window.firstEventAt) window.firstEventAt = at;
    if (at > window.lastEventAt) window.lastEventAt = at;
    return window;
  }
}

function pageViewsOf(views: PageViews): PageViewSightings {
  const none = views.batches === 0;
  return {
    batches: views.batches,
    sessions: views.sessions.size,
    clients: views.clients.size,
    firstAt: none ? null : new Date(views.firstAt).toISOString(),
    lastAt: none ? null : new Date(views.lastAt).toISOString(),
  };
}
