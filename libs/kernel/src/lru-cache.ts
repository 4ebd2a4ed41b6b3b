/**
 * A map with a fixed maximum size that forgets its least recently used entry first: every in-memory cache on a
 * hot path is one, so a process that runs for months at any traffic holds at most `maxEntries` of each.
 * (A Map iterates in insertion order; reading an entry re-inserts it, so the first key is the least recent.)
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new Error(`an LRU cache needs at least one entry, got ${maxEntries}`);
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
  }

  /** The least recently used key, next to be forgotten. */
  oldest(): K | undefined {
    return this.entries.keys().next().value;
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
