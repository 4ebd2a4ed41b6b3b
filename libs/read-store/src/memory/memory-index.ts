import type { Document, Filter, IndexSpec, SortSpec } from '../read-store.port';
import { compareSortKeys, sortKeysOf, type SortKeys } from './sort-page';

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
  /** The indexed fields, in key order. */
  readonly fields: readonly string[];
  private readonly paths: string[][];
  private readonly unique: boolean;
  private readonly idsByKey = new Map<string, Set<string>>();
  /** 1 for each field after the first: the ordered entries' comparison. */
  private readonly ascending: number[];
  /**
   * For an index that ends with `_id` (so its order is total), the ids under each value of its first field,
   * ascending by the other fields: a sorted find with the first field fixed walks it (backwards for a descending
   * sort) and stops at its page. Ascending whatever the index's directions, so the usual insert (the newest
   * script, a larger time and UUIDv7) lands at the end instead of shifting every entry. Dropped for good once a
   * document holds there what the direct sort leaves to mingo (an array, an object, NaN).
   */
  private ordered: Map<string, OrderedEntry[]> | undefined;

  constructor(spec: IndexSpec) {
    this.fields = Object.keys(spec.key);
    this.paths = this.fields.map((field) => field.split('.'));
    this.roots = new Set(this.paths.map((path) => path[0]));
    this.pattern = Object.entries(spec.key)
      .map(([field, direction]) => `${field}_${direction}`)
      .join('_');
    this.name = spec.name ?? this.pattern; // MongoDB's default index name
    this.unique = spec.unique ?? false;
    this.ascending = this.fields.slice(1).map(() => 1);
    const orderable =
      this.fields.length >= 2 &&
      this.fields[this.fields.length - 1] === '_id' &&
      this.fields.every((field) => !field.includes('.') && (spec.key[field] === 1 || spec.key[field] === -1));
    if (orderable) this.ordered = new Map();
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
    if (this.ordered) this.reorder(id, before, after);
  }

  /**
   * The ids whose first indexed field holds the filter's value, in the order `sort` asks for, when this index
   * holds exactly that order: the sort names the index's other fields, all ascending or all descending.
   */
  orderedIds(filter: Filter, sort: SortSpec): { entries: readonly OrderedEntry[]; reversed: boolean } | undefined {
    if (!this.ordered) return undefined;
    const sortFields = Object.keys(sort);
    if (sortFields.length !== this.fields.length - 1) return undefined;
    const descending = sort[sortFields[0]] === -1;
    for (let i = 0; i < sortFields.length; i += 1) {
      if (sortFields[i] !== this.fields[i + 1] || (sort[sortFields[i]] === -1) !== descending) return undefined;
    }
    const value = equalityValue(filter, this.fields[0]);
    if (!isIndexableValue(value)) return undefined;
    return { entries: this.ordered.get(encodeKey([value])) ?? [], reversed: descending };
  }

  private reorder(id: string, before: IndexKeys, after: IndexKeys): void {
    // A document under several keys (an array in an indexed field) has no one place in the order.
    if (before.size > 1 || after.size > 1) return this.dropOrder();
    for (const [encoded, values] of before) if (!after.has(encoded) && !this.unplace(values, id)) return this.dropOrder();
    for (const [encoded, values] of after) if (!before.has(encoded) && !this.place(values, id)) return this.dropOrder();
  }

  private dropOrder(): void {
    this.ordered = undefined;
  }

  private place(values: unknown[], id: string): boolean {
    const keys = sortKeysOf(values.slice(1));
    if (!keys) return false;
    const group = encodeKey([values[0]]);
    const entries = this.ordered!.get(group) ?? [];
    if (entries.length === 0) this.ordered!.set(group, entries);
    const entry = { id, keys };
    entries.splice(this.position(entries, entry), 0, entry);
    return true;
  }

  private unplace(values: unknown[], id: string): boolean {
    const keys = sortKeysOf(values.slice(1));
    const group = encodeKey([values[0]]);
    const entries = this.ordered!.get(group);
    if (!keys || !entries) return false;
    const at = this.position(entries, { id, keys });
    if (entries[at]?.id !== id) return false;
    entries.splice(at, 1);
    if (entries.length === 0) this.ordered!.delete(group);
    return true;
  }

  /** Where an entry goes among the ascending entries: binary search, from the end, where most inserts go. */
  private position(entries: OrderedEntry[], entry: OrderedEntry): number {
    const directions = this.ascending;
    const last = entries[entries.length - 1];
    if (!last || compareSortKeys(last.keys, entry.keys, directions) < 0) return entries.length;
    let low = 0;
    let high = entries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareSortKeys(entries[middle].keys, entry.keys, directions) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The ids under the filter's key, when it fixes every field of this index to a plain value (`equalityValue`). */
  lookup(filter: Filter): ReadonlySet<string> | undefined {
    const values = this.fields.map((field) => equalityValue(filter, field));
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

/** One document's place in an ordered index: its id and the sort keys of the fields after the first. */
export interface OrderedEntry {
  id: string;
  keys: SortKeys;
}

/**
 * The value a filter fixes a top-level field to by equality: the field's own clause, or one in a top-level `$and`
 * (a cursor's page is `{ $and: [filter, after] }`); undefined when it fixes none.
 */
export function equalityValue(filter: Filter, field: string): unknown {
  if (isIndexableValue(filter[field])) return filter[field];
  if (!Array.isArray(filter.$and)) return undefined;
  for (const branch of filter.$and as unknown[]) {
    if (typeof branch !== 'object' || branch === null || Array.isArray(branch)) continue;
    const value = equalityValue(branch as Filter, field);
    if (value !== undefined) return value;
  }
  return undefined;
}

/**
 * The filter without the clauses an index lookup has already decided: top-level fields the lookup fixed to a
 * plain value. Every document filed under that key holds the value there, or an array holding it, which is
 * exactly what equality on a top-level field asks (types apart, NaN equal to NaN, as both encode them), so the
 * matcher need not read those fields again for each of the candidates. Dotted fields stay: the index fans arrays
 * out along a path in its own way. An ordered walk decides only the index's first field (`decidedFields` 1).
 */
export function residualFilter(filter: Filter, index: MemoryIndex, decidedFields = index.fields.length): Filter {
  const decided = index.fields.slice(0, decidedFields).filter((field) => !field.includes('.') && isIndexableValue(filter[field]));
  const fields = Object.keys(filter);
  // An own `__proto__` clause cannot be copied by assignment: such a filter is checked whole.
  if (decided.length === 0 || fields.includes('__proto__')) return filter;
  // Built without `delete`, which would leave a slow dictionary-mode object on every lookup.
  const rest: Filter = {};
  for (const field of fields) if (!decided.includes(field)) rest[field] = filter[field];
  return rest;
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
