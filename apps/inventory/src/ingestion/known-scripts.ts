/**
 * What this process knows of each script's current hash, so a repeated sighting is counted without reading
 * the script's stream. Entries expire, so a change recorded by another replica is picked up within a minute.
 */
export class KnownScripts {
  private readonly entries = new Map<string, { hash: string | null; until: number }>();

  constructor(
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 100_000,
  ) {}

  /** True when `hash` is what this process last saw for the script (an unhashed sighting matches any). */
  matches(scriptId: string, hash: string | null, now: number): boolean {
    const entry = this.entries.get(scriptId);
    if (!entry || entry.until < now) return false;
    return hash === null || hash === entry.hash;
  }

  remember(scriptId: string, hash: string | null, now: number): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(scriptId, { hash, until: now + this.ttlMs });
  }
}
