import type { ScriptObservation } from '@pss/contracts';
import { LruCache } from '@pss/kernel';

/** Scripts the edge remembers, over every store: at about 250 bytes each, 100,000 of them hold some 25 MB. */
export const EDGE_SCRIPTS_CACHED = 100_000;
/** After this, a remembered hash is checked with inventory again: a change recorded through another replica shows within it. */
export const EDGE_SCRIPT_FRESH_MS = 60_000;

export type EdgeVerdict =
  /** Inventory recorded this hash for the script less than EDGE_SCRIPT_FRESH_MS ago: a sighting, counted here. */
  | { kind: 'known'; scriptId: string }
  /** Known with this hash once, but not lately: inventory checks it again. */
  | { kind: 'stale' }
  /** Never settled here with this hash: a new script, new content, or a cold cache. */
  | { kind: 'unknown' };

/**
 * The gateway's memory of what inventory settled, so a page view of known scripts costs a map lookup per script:
 * no bus hop, no hashing, no read. Keyed by the store and the script's identity as reported (an inline script's
 * hash; an external script's URL without query or fragment, as inventory's script key), never trusted beyond
 * EDGE_SCRIPT_FRESH_MS.
 */
export class EdgeScripts {
  private readonly entries = new LruCache<string, { scriptId: string; hash: string | null; freshUntil: number }>(EDGE_SCRIPTS_CACHED);

  verdict(storeId: string, observation: ScriptObservation, now: number): EdgeVerdict {
    const entry = this.entries.get(identity(storeId, observation));
    // An unhashed sighting (a script the SDK could not read) matches whatever hash is on record, as in inventory.
    if (!entry || (observation.hash !== undefined && observation.hash !== entry.hash)) return { kind: 'unknown' };
    return entry.freshUntil > now ? { kind: 'known', scriptId: entry.scriptId } : { kind: 'stale' };
  }

  remember(storeId: string, observation: ScriptObservation, scriptId: string, hash: string | null, now: number): void {
    this.entries.set(identity(storeId, observation), { scriptId, hash, freshUntil: now + EDGE_SCRIPT_FRESH_MS });
  }

  get size(): number {
    return this.entries.size;
  }
}

function identity(storeId: string, observation: ScriptObservation): string {
  if (observation.inline) return `${storeId} inline:${observation.hash}`;
  const src = observation.src!;
  const end = src.search(/[?#]/);
  return `${storeId} ${end < 0 ? src : src.slice(0, end)}`;
}
