import type { Document, Filter, IndexSpec } from '../read-store.port';

/** A document's distinct keys in one index, encoded, with the values they stand for. */
export type IndexKeys = ReadonlyMap<string, unknown[]>;
export const NO_KEYS: IndexKeys = new Map();

/**
 * A declared index, keyed like a MongoDB one: an array fans out into one key per element and a missing field is
 * null. Unique indexes refuse a second document under a key; every index narrows lookups by equality.
 */
export class MemoryIndex {
  readonly name: string;
  readonly pattern: string;
  /** The top-level fields its keys are read from: an update that touches none of them keeps its keys. */
  readonly roots: ReadonlySet<string>;
  private readonly fields: string[];
  private readonly paths: string[][];
  private readonly unique: boolean;
  private readonly idsByKey = new Map<string, Set<string>>();

  constructor(spec: IndexSpec) {
    this.fields = Object.keys(spec.key);
    this.paths = this.fields.map((field) => field.split('.'));
    this.roots = new Set(this.paths.map((path) => path[0]));
    this.pattern = Object.entries(spec.key)
      .map(([field, direction]) => `${field}_${direction}`)
      .join('_');
    this.name = spec.name ?? this.pattern; // MongoDB's default index name
    this.unique = spec.unique ?? false;
  }

  sameAs(other: MemoryIndex): boolean {
    return this.name === other.name && this.pattern === other.pattern && this.unique === other.unique;
  }

  /** The key another document already holds, when `keys` would break uniqueness. */
  collision(id: string, keys: IndexKeys): Record<string, unknown> | undefined {
    if (!this.unique) return undefined;
    for (const [encoded, values] of keys) {
      const holders = this.idsByKey.get(encoded);
      if (holders && [...holders].some((holder) => holder !== id)) {
        return Object.fromEntries(this.fields.map((field, i) => [field, values[i]]));
      }
    }
    return undefined;
  }

  /** Files `id` under the keys it has now instead of those it had; keys in both stay as they are. */
  move(id: string, before: IndexKeys, after: IndexKeys): void {
    for (const encoded of before.keys()) {
      if (after.has(encoded)) continue;
      const holders = this.idsByKey.get(encoded);
      holders?.delete(id);
      if (holders?.size === 0) this.idsByKey.delete(encoded);
    }
    for (const encoded of after.keys()) {
      if (before.has(encoded)) continue;
      const holders = this.idsByKey.get(encoded);
      if (holders) holders.add(id);
      else this.idsByKey.set(encoded, new Set([id]));
    }
  }

  /** The ids under the filter's key, when it fixes every field of this index to a plain value. */
  lookup(filter: Filter): ReadonlySet<string> | undefined {
    const values = this.fields.map((field) => filter[field]);
    if (!values.every(isIndexableValue)) return undefined;
    return this.idsByKey.get(encodeKey(values)) ?? new Set();
  }

  keysOf(doc: Document): IndexKeys {
    let combinations: unknown[][] = [[]];
    for (const path of this.paths) {
      const values = indexedValues(doc, path);
      combinations = combinations.flatMap((prefix) => values.map((value) => [...prefix, value]));
    }
    return new Map(combinations.map((values) => [encodeKey(values), values]));
  }
}

/** Values an equality filter can look up in an index: the ones whose index key is the value itself. */
export function isIndexableValue(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** What an index records at `path`: the elements of an array (undefined when empty), null when missing. */
function indexedValues(value: unknown, path: readonly string[]): unknown[] {
  if (Array.isArray(value)) {
    if (value.length === 0) return [path.length === 0 ? undefined : null];
    return path.length === 0 ? value : value.flatMap((element) => indexedValues(element, path));
  }
  if (path.length === 0) return [value ?? null];
  if (value === null || typeof value !== 'object') return [null];
  return indexedValues((value as Record<string, unknown>)[path[0]], path.slice(1));
}

/** One string per index key; types stay apart (1 is not '1') the way BSON comparison keeps them apart. */
function encodeKey(values: unknown[]): string {
  return values.map(encodeValue).join('\u0000');
}

function encodeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (value instanceof Date) return `date:${value.getTime()}`;
  if (Array.isArray(value)) return `[${value.map(encodeValue).join(',')}]`;
  if (typeof value === 'object') {
    const fields = Object.entries(value).map(([field, inner]) => `${JSON.stringify(field)}:${encodeValue(inner)}`);
    return `{${fields.join(',')}}`;
  }
  return `${typeof value}:${typeof value === 'string' ? JSON.stringify(value) : String(value)}`;
}
