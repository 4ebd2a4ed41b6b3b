import { uuidv7 } from '@pss/kernel';
import {
  DuplicateKeyError,
  type Document,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type ReadCollection,
  type ReadStore,
  type UpdateResult,
  type UpdateSpec,
} from '../read-store.port';

/*
 * mingo loaded from its subpath modules with only the query and expression operators, as its README shows: the
 * root entry copies its registry of every operator on each query and update, which made the projection hot path
 * (one filter and one update per event) about four times slower. This repository resolves modules the node10
 * way, which cannot see subpath exports, hence `require` typed from mingo's declaration files.
 */
const { Context } = require('mingo/core') as typeof import('mingo/types/core');
const { Query } = require('mingo/query') as typeof import('mingo/types/query');
const { update: mingoUpdate } = require('mingo/updater') as typeof import('mingo/types/updater');
const MINGO_OPTIONS = {
  context: Context.init({ query: require('mingo/operators/query'), expression: require('mingo/operators/expression') }),
};

/**
 * The embedded read store: collections held in memory, queried and updated by mingo with the same documents as
 * MongoDB. Nothing is persisted: read models are rebuilt from the event store at start.
 */
export class MemoryReadStore implements ReadStore {
  private readonly collections = new Map<string, StoredCollection>();

  collection<T extends Document = Document>(name: string): ReadCollection<T> {
    return new MemoryReadCollection<T>(name, this.collections);
  }

  async ensureIndexes(collection: string, indexes: IndexSpec[]): Promise<void> {
    if (indexes.length === 0) return;
    const stored = openCollection(this.collections, collection);
    for (const spec of indexes) stored.ensureIndex(spec);
  }

  async drop(collection: string): Promise<void> {
    this.collections.delete(collection);
  }

  /** A missing `from` is an empty collection, so `to` ends up empty: an empty rebuild still swaps in. */
  async rename(from: string, to: string): Promise<void> {
    if (from === to) return;
    const source = this.collections.get(from);
    this.collections.delete(from);
    if (source) this.collections.set(to, source.renamed(to));
    else this.collections.delete(to);
  }

  async listCollections(): Promise<string[]> {
    return [...this.collections.keys()].sort();
  }

  async close(): Promise<void> {
    this.collections.clear();
  }
}

const NOTHING_MATCHED: UpdateResult = { matched: 0, modified: 0, upserted: false };

/**
 * A handle by name, like a driver collection: it finds its data at each call, so it sees drops and renames made
 * after it was taken. Reads never create the collection; writes do, as on MongoDB.
 */
class MemoryReadCollection<T extends Document> implements ReadCollection<T> {
  constructor(
    readonly name: string,
    private readonly collections: Map<string, StoredCollection>,
  ) {}

  async findOne(filter: Filter): Promise<T | null> {
    const doc = this.stored?.first(filter);
    return doc ? copy<T>(doc) : null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const matching = this.stored?.matching(filter) ?? [];
    const { skip, limit } = options;
    const sort = options.sort && Object.keys(options.sort).length > 0 ? options.sort : undefined;
    if (!sort && !skip && !limit) return matching.map((doc) => copy<T>(doc));
    const cursor = new Query({}, MINGO_OPTIONS).find<Document>(matching);
    if (sort) cursor.sort(sort);
    if (skip) cursor.skip(skip);
    if (limit) cursor.limit(limit); // 0 means no limit, as on MongoDB
    return cursor.all().map((doc) => copy<T>(doc));
  }

  async count(filter: Filter): Promise<number> {
    return this.stored?.matching(filter).length ?? 0;
  }

  async insertOne(doc: T): Promise<void> {
    this.open().insert(copy(doc));
  }

  async upsert(doc: T): Promise<void> {
    const stored = this.open();
    const current = stored.byId(doc._id);
    if (current) stored.replace(current, copy(doc));
    else stored.insert(copy(doc));
  }

  async updateOne(filter: Filter, update: UpdateSpec, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    const stored = options.upsert ? this.open() : this.stored;
    if (!stored) return NOTHING_MATCHED;
    const target = stored.first(filter);
    if (target) return { matched: 1, modified: stored.update(target, update) ? 1 : 0, upserted: false };
    if (!options.upsert) return NOTHING_MATCHED;
    stored.insert(upsertedDocument(filter, update));
    return { matched: 0, modified: 0, upserted: true };
  }

  async updateMany(filter: Filter, update: UpdateSpec): Promise<UpdateResult> {
    const stored = this.stored;
    if (!stored) return NOTHING_MATCHED;
    let matched = 0;
    let modified = 0;
    // Not atomic, like MongoDB: a duplicate key stops the loop and leaves the earlier documents updated.
    for (const target of stored.matching(filter)) {
      matched += 1;
      if (stored.update(target, update)) modified += 1;
    }
    return { matched, modified, upserted: false };
  }

  async deleteMany(filter: Filter): Promise<number> {
    const stored = this.stored;
    if (!stored) return 0;
    const doomed = stored.matching(filter);
    for (const doc of doomed) stored.remove(doc);
    return doomed.length;
  }

  private get stored(): StoredCollection | undefined {
    return this.collections.get(this.name);
  }

  private open(): StoredCollection {
    return openCollection(this.collections, this.name);
  }
}

function openCollection(collections: Map<string, StoredCollection>, name: string): StoredCollection {
  let stored = collections.get(name);
  if (!stored) {
    stored = new StoredCollection(name, new Map(), []);
    collections.set(name, stored);
  }
  return stored;
}

/**
 * One collection's documents by `_id` plus its declared indexes. Stored documents are never mutated: an update
 * builds the next version and swaps it in once every unique index accepts it.
 */
class StoredCollection {
  constructor(
    readonly name: string,
    private readonly docs: Map<string, Document>,
    private readonly indexes: MemoryIndex[],
  ) {}

  renamed(name: string): StoredCollection {
    return new StoredCollection(name, this.docs, this.indexes);
  }

  ensureIndex(spec: IndexSpec): void {
    const wanted = new MemoryIndex(spec);
    const existing = this.indexes.find((index) => index.name === wanted.name || index.pattern === wanted.pattern);
    if (existing) {
      // MongoDB refuses to redefine an index under the same name or key; failing here too keeps the modes alike.
      if (!existing.sameAs(wanted)) {
        throw new Error(`Index ${wanted.name} on ${this.name} conflicts with index ${existing.name}`);
      }
      return;
    }
    for (const doc of this.docs.values()) {
      const keys = wanted.keysOf(doc);
      this.refuseCollision(wanted, doc._id, keys);
      wanted.move(doc._id, NO_KEYS, keys);
    }
    this.indexes.push(wanted);
  }

  byId(id: string): Document | undefined {
    return this.docs.get(id);
  }

  first(filter: Filter): Document | undefined {
    const id = idLookup(filter);
    if (id !== undefined) return this.docs.get(id);
    const query = new Query(filter, MINGO_OPTIONS);
    for (const doc of this.candidates(filter)) if (query.test(doc)) return doc;
    return undefined;
  }

  matching(filter: Filter): Document[] {
    const id = idLookup(filter);
    if (id !== undefined) return this.docs.has(id) ? [this.docs.get(id) as Document] : [];
    if (Object.keys(filter).length === 0) return [...this.docs.values()];
    const query = new Query(filter, MINGO_OPTIONS);
    return [...this.candidates(filter)].filter((doc) => query.test(doc));
  }

  insert(doc: Document): void {
    if (this.docs.has(doc._id)) throw new DuplicateKeyError(this.name, { _id: doc._id });
    this.reindex(doc._id, this.indexes.map(() => NO_KEYS), this.keysOf(doc));
    this.docs.set(doc._id, doc);
  }

  replace(current: Document, next: Document): void {
    this.reindex(next._id, this.keysOf(current), this.keysOf(next));
    this.docs.set(next._id, next);
  }

  /** Applies the update operators to `current`; false when they change nothing. */
  update(current: Document, spec: UpdateSpec): boolean {
    const next = structuredClone(current);
    const { $setOnInsert: _onInsertOnly, ...operators } = withoutUnchangedId(spec, current._id);
    if (!applyOperators(next, operators)) return false;
    this.replace(current, next);
    return true;
  }

  remove(doc: Document): void {
    this.reindex(doc._id, this.keysOf(doc), this.indexes.map(() => NO_KEYS));
    this.docs.delete(doc._id);
  }

  /** The documents a filter can match: one by `_id`, the few an index holds for its equality fields, or all. */
  private candidates(filter: Filter): Iterable<Document> {
    if (isIndexableValue(filter._id)) {
      const doc = this.docs.get(filter._id as string);
      return doc ? [doc] : [];
    }
    let narrowest: ReadonlySet<string> | undefined;
    for (const index of this.indexes) {
      const ids = index.lookup(filter);
      if (ids && (!narrowest || ids.size < narrowest.size)) narrowest = ids;
    }
    if (!narrowest) return this.docs.values();
    return [...narrowest].map((id) => this.docs.get(id) as Document);
  }

  private keysOf(doc: Document): IndexKeys[] {
    return this.indexes.map((index) => index.keysOf(doc));
  }

  /** Checks every unique index before touching any, so a refused write leaves all of them as they were. */
  private reindex(id: string, before: IndexKeys[], after: IndexKeys[]): void {
    this.indexes.forEach((index, i) => this.refuseCollision(index, id, after[i]));
    this.indexes.forEach((index, i) => index.move(id, before[i], after[i]));
  }

  private refuseCollision(index: MemoryIndex, id: string, keys: IndexKeys): void {
    const keyValue = index.collision(id, keys);
    if (keyValue) throw new DuplicateKeyError(this.name, keyValue);
  }
}

/** A document's distinct keys in one index, encoded, with the values they stand for. */
type IndexKeys = ReadonlyMap<string, unknown[]>;
const NO_KEYS: IndexKeys = new Map();

/**
 * A declared index, keyed like a MongoDB one: an array fans out into one key per element and a missing field is
 * null. Unique indexes refuse a second document under a key; every index narrows lookups by equality.
 */
class MemoryIndex {
  readonly name: string;
  readonly pattern: string;
  private readonly fields: string[];
  private readonly paths: string[][];
  private readonly unique: boolean;
  private readonly idsByKey = new Map<string, Set<string>>();

  constructor(spec: IndexSpec) {
    this.fields = Object.keys(spec.key);
    this.paths = this.fields.map((field) => field.split('.'));
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

/** `{ _id: value }` and nothing else: answered from the map without compiling a query. */
function idLookup(filter: Filter): string | undefined {
  return typeof filter._id === 'string' && Object.keys(filter).length === 1 ? filter._id : undefined;
}

/** Values an equality filter can look up in an index: the ones whose index key is the value itself. */
function isIndexableValue(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
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

type MingoModifier = Parameters<typeof mingoUpdate>[1];

/** Applies MongoDB update operators in place; true when the document changed. */
function applyOperators(doc: Document, operators: UpdateSpec): boolean {
  // An operator with no fields is a no-op on MongoDB 5+; mingo needs at least one operator to work on.
  const effective = Object.fromEntries(
    Object.entries(operators).filter(([, fields]) => Object.keys(fields).length > 0),
  );
  if (Object.keys(effective).length === 0) return false;
  // Deep copies keep values from the caller's update document from being shared with the stored document.
  return mingoUpdate(doc, effective as MingoModifier, undefined, undefined, { cloneMode: 'deep' }).length > 0;
}

/** mingo refuses any `$set` of `_id`; MongoDB accepts one that keeps the value, as whole-document `$set`s do. */
function withoutUnchangedId(update: UpdateSpec, id: string): UpdateSpec {
  return Object.fromEntries(
    Object.entries(update).map(([operator, fields]) => {
      if (fields._id !== id) return [operator, fields];
      const { _id: _unchanged, ...rest } = fields;
      return [operator, rest];
    }),
  );
}

/**
 * The document an upsert inserts, built as MongoDB builds it: the filter's equality fields, then the update
 * operators, then `$setOnInsert`. Without an `_id` from the filter or the update, the id is a string (UUIDv7)
 * where MongoDB would make an ObjectId: read models are keyed by strings.
 */
function upsertedDocument(filter: Filter, update: UpdateSpec): Document {
  const { _id: filterId, ...seed } = Object.fromEntries(equalityFields(filter));
  const id = [filterId, update.$setOnInsert?._id, update.$set?._id].find((value) => value !== undefined) ?? uuidv7();
  const doc = { _id: id } as Document;
  const { $setOnInsert, ...operators } = withoutUnchangedId(update, doc._id);
  applyOperators(doc, { $set: seed });
  applyOperators(doc, operators);
  if ($setOnInsert) applyOperators(doc, { $set: $setOnInsert });
  return doc;
}

function equalityFields(filter: Filter): Array<[string, unknown]> {
  return Object.entries(filter).flatMap(([path, condition]): Array<[string, unknown]> => {
    if (path === '$and' && Array.isArray(condition)) {
      return condition.flatMap((clause: Filter) => equalityFields(clause));
    }
    if (path.startsWith('$') || condition instanceof RegExp) return [];
    if (!isOperatorDocument(condition)) return [[path, condition]];
    return '$eq' in condition ? [[path, condition.$eq]] : [];
  });
}

function isOperatorDocument(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.keys(value).some((key) => key.startsWith('$'));
}

function copy<T>(doc: Document): T {
  return structuredClone(doc) as T;
}
