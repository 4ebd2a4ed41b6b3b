import type { ScriptObservation } from '@pss/contracts';
import { LruCache } from '@pss/kernel';
import { scriptKey } from '@pss/sdk-contract';

/** Scripts the edge remembers, over every store: at about 250 bytes each, 100,000 of them hold some 25 MB. */
export const EDGE_SCRIPTS_CACHED = 100_000;
/** After this, a remembered hash is checked with inventory again: a change recorded through another replica shows within it. */
export const EDGE_SCRIPT_FRESH_MS = 60_000;

export type EdgeVerdict =
  /** Inventory recorded this hash for the script less than EDGE_SCRIPT_FRESH_MS ago: a sighting, counted here. */
  | { kind: 'known'; scriptId: string }
  /** Known with this hash once, but not lately, or holding a mismatch: inventory checks it again. */
  | { kind: 'stale' }
  /** Never settled here with this hash: a new script, new content, or a cold cache. */
  | { kind: 'unknown' };

interface Remembered {
  scriptId: string;
  hash: string | null;
  /** Settled as content the browser refused for the page's `integrity`: a sighting that says otherwise is news. */
  refused: boolean;
  /**
   * Holds a mismatch (issue 29): inventory counts each sighting of it towards restoring the authorized content,
   * so none is settled here, and none is deferred with the new scripts of a spent address either.
   */
  held: boolean;
  freshUntil: number;
}

const UNKNOWN: EdgeVerdict = { kind: 'unknown' };
const STALE: EdgeVerdict = { kind: 'stale' };

/**
 * The gateway's memory of what inventory settled, so a page view of known scripts costs a map lookup per script:
 * no bus hop, no hashing, no read. Per store (the least recently active stores are forgotten first, so a batch
 * touches the recency order once), then per script by inventory's own identity (`scriptKey`), so the edge never
 * holds one script as two, nor two as one. Never trusted beyond EDGE_SCRIPT_FRESH_MS.
 */
export class EdgeScripts {
  private readonly stores = new LruCache<string, Map<string, Remembered>>(EDGE_SCRIPTS_CACHED);
  private remembered = 0;

  /** The store's scripts, once per batch. */
  of(storeId: string): StoreScripts {
    return new StoreScripts(this.stores.get(storeId), (identity, entry) => this.remember(storeId, identity, entry));
  }

  get size(): number {
    return this.remembered;
  }

  private remember(storeId: string, identity: string, entry: Remembered): void {
    let scripts = this.stores.get(storeId);
    if (!scripts) {
      scripts = new Map();
      this.stores.set(storeId, scripts);
    }
    if (!scripts.has(identity)) this.remembered += 1;
    scripts.set(identity, entry);
    // Bounded by scripts, not stores: the least recently active stores go first, whole.
    while (this.remembered > EDGE_SCRIPTS_CACHED) {
      const oldest = this.stores.oldest();
      if (oldest === undefined) break;
      this.remembered -= this.stores.get(oldest)?.size ?? 0;
      this.stores.delete(oldest);
    }
  }
}

/** One store's remembered scripts, as one batch sees them. */
export class StoreScripts {
  constructor(
    private readonly scripts: Map<string, Remembered> | undefined,
    private readonly store: (identity: string, entry: Remembered) => void,
  ) {}

  verdict(observation: ScriptObservation, now: number): EdgeVerdict {
    const entry = this.scripts?.get(scriptKey(observation));
    if (entry?.held) return STALE;
    // An unhashed sighting (a script the SDK could not read) matches whatever hash is on record, as in inventory.
    if (!entry || (observation.hash !== undefined && observation.hash !== entry.hash) || refusedIn(observation) !== entry.refused) return UNKNOWN;
    return entry.freshUntil > now ? { kind: 'known', scriptId: entry.scriptId } : STALE;
  }

  remember(observation: ScriptObservation, scriptId: string, hash: string | null, now: number, held = false): void {
    this.store(scriptKey(observation), { scriptId, hash, refused: refusedIn(observation), held, freshUntil: now + EDGE_SCRIPT_FRESH_MS });
  }
}

const refusedIn = (observation: ScriptObservation): boolean => observation.refused_integrity !== undefined;
