import type { DomainEvent } from '@pss/kernel';

/**
 * Repeated sightings of known scripts are not an event each: they are counted in memory and recorded once per
 * store per flush window as one `SightingsFlushed` event (last_seen_at, counters, sessions, SDK activity).
 */
export interface ScriptSightings {
  scriptId: string;
  sightings: number;
  /** Distinct sessions within the flush window. */
  sessions: number;
  lastSeenAt: string;
}

export type SightingsEvent = DomainEvent<
  'SightingsFlushed',
  {
    storeId: string;
    orgId: string;
    firstEventAt: string;
    lastEventAt: string;
    batches: number;
    observations: number;
    scripts: ScriptSightings[];
  }
>;

export const sightingsStream = (storeId: string): string => `sightings-${storeId}`;

/**
 * Distinct sessions counted per script and window at most: beyond, the count says "at least this many". The
 * window holds one entry per store and script seen in FLUSH_INTERVAL_MS, and the SDK's per-store rate limit
 * bounds the sessions a store can send in it; this cap keeps a window bounded whatever the limits are set to.
 */
export const MAX_SESSIONS_COUNTED = 10_000;

interface StoreWindow {
  orgId: string;
  firstEventAt: number;
  lastEventAt: number;
  batches: number;
  observations: number;
  scripts: Map<string, { sightings: number; sessions: Set<string>; lastSeenAt: number }>;
}

/** The in-memory window of sightings; pure bookkeeping, flushed by the ingestion service. */
export class SightingBuffer {
  private windows = new Map<string, StoreWindow>();

  recordBatch(storeId: string, orgId: string, observations: number, at: Date): void {
    const window = this.window(storeId, orgId, at.getTime());
    window.batches += 1;
    window.observations += observations;
  }

  recordScript(storeId: string, orgId: string, scriptId: string, sessionId: string, at: Date): void {
    const window = this.window(storeId, orgId, at.getTime());
    const script = window.scripts.get(scriptId) ?? { sightings: 0, sessions: new Set<string>(), lastSeenAt: 0 };
    script.sightings += 1;
    if (script.sessions.size < MAX_SESSIONS_COUNTED) script.sessions.add(sessionId);
    script.lastSeenAt = Math.max(script.lastSeenAt, at.getTime());
    window.scripts.set(scriptId, script);
  }

  get size(): number {
    return this.windows.size;
  }

  /** Hands over everything counted so far and starts a new window. */
  drain(): SightingsEvent[] {
    const drained = this.windows;
    this.windows = new Map();
    return [...drained].map(([storeId, window]) => ({
      type: 'SightingsFlushed' as const,
      data: {
        storeId,
        orgId: window.orgId,
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
      },
    }));
  }

  private window(storeId: string, orgId: string, at: number): StoreWindow {
    let window = this.windows.get(storeId);
    if (!window) {
      window = { orgId, firstEventAt: at, lastEventAt: at, batches: 0, observations: 0, scripts: new Map() };
      this.windows.set(storeId, window);
    }
    window.firstEventAt = Math.min(window.firstEventAt, at);
    window.lastEventAt = Math.max(window.lastEventAt, at);
    return window;
  }
}
