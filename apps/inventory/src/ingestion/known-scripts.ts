import { LruCache } from '@pss/kernel';

/** Scripts whose hash this process remembers: at about 200 bytes each, 100,000 of them hold some 20 MB. */
export const KNOWN_SCRIPTS_CACHED = 100_000;

/**
 * A script's current hash, whether the browser refuses that content for the page's `integrity`, and whether it
 * holds a mismatch (then no sighting of it is settled from memory), with the authorized hash whose sightings
 * restore it.
 */
export interface KnownScript {
  hash: string | null;
  refused: boolean;
  held: boolean;
  authorized: string | null;
}

/**
 * What this process knows of each script's current hash, so a repeated sighting is counted without reading
 * the script's stream. Entries expire, so a change recorded by another replica is picked up within a minute;
 * the least recently seen are forgotten beyond `maxEntries`.
 */
export class KnownScripts {
  private readonly entries: LruCache<string, KnownScript & { until: number }>;

  constructor(
    private readonly ttlMs = 60_000,
    maxEntries = KNOWN_SCRIPTS_CACHED,
  ) {
    this.entries = new LruCache(maxEntries);
  }

  /** The script's hash as this process last saw it, unless forgotten or expired. */
  current(scriptId: string, now: number): KnownScript | undefined {
    const entry = this.entries.get(scriptId);
    return entry && entry.until >= now ? entry : undefined;
  }

  remember(scriptId: string, known: KnownScript, now: number): void {
    this.entries.set(scriptId, { ...known, until: now + this.ttlMs });
  }

  get size(): number {
    return this.entries.size;
  }
}
