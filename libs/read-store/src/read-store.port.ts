/**
 * The read-model port: collections queried with MongoDB's own filter, sort and update documents, so one
 * projection runs unchanged on MongoDB (distributed) and on in-memory collections evaluated by mingo (embedded).
 * Both adapters pass the one conformance suite in `read-store.conformance.ts`.
 */

/** Any object with a string `_id`; read-model interfaces need no index signature to qualify. */
export type Document = { _id: string };
/** The document type of a collection whose callers name none. */
export type AnyDocument = Document & Record<string, unknown>;
export type Filter = Record<string, unknown>;
export type SortSpec = Record<string, 1 | -1>;
/** A MongoDB update document: $set, $unset, $inc, $push, $pull, $addToSet, $setOnInsert, $max, $min. */
export type UpdateSpec = Record<string, Record<string, unknown>>;

/**
 * A document a read store may share with every other reader: read-only all the way down, and frozen, so a write
 * to it throws instead of reaching the store. (A Date cannot be frozen: a store shares no document holding one.)
 */
export type Frozen<T> = T extends Date
  ? T
  : T extends (infer E)[]
    ? ReadonlyArray<Frozen<E>>
    : T extends object
      ? { readonly [K in keyof T]: Frozen<T[K]> }
      : T;

export interface FindOptions {
  sort?: SortSpec;
  limit?: number;
  skip?: number;
}

export interface UpdateResult {
  matched: number;
  modified: number;
  upserted: boolean;
}

export interface IndexSpec {
  key: Record<string, 1 | -1>;
  unique?: boolean;
  name?: string;
}

/** A unique index refused a write; `keyValue` names the colliding key. */
export class DuplicateKeyError extends Error {
  constructor(
    readonly collection: string,
    readonly keyValue: Record<string, unknown>,
  ) {
    super(`Duplicate key in ${collection}: ${JSON.stringify(keyValue)}`);
    this.name = 'DuplicateKeyError';
  }
}

export interface ReadCollection<T extends Document = AnyDocument> {
  readonly name: string;
  findOne(filter: Filter): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  /**
   * `findOne` and `find` for callers that only read what they find (a GET presenting a page): the documents come
   * deep-frozen instead of as the caller's own copies, so the memory adapter hands out its stored versions, which
   * it never changes in place, without copying them. A frozen document's data never changes, so what a caller
   * derives from it (its rendering, a verified token) holds as long as the caller holds that object.
   */
  findOneFrozen(filter: Filter): Promise<Frozen<T> | null>;
  findFrozen(filter: Filter, options?: FindOptions): Promise<ReadonlyArray<Frozen<T>>>;
  count(filter: Filter): Promise<number>;
  insertOne(doc: T): Promise<void>;
  /** Replaces the document with `doc._id`, inserting it when missing. */
  upsert(doc: T): Promise<void>;
  updateOne(filter: Filter, update: UpdateSpec, options?: { upsert?: boolean }): Promise<UpdateResult>;
  updateMany(filter: Filter, update: UpdateSpec): Promise<UpdateResult>;
  deleteMany(filter: Filter): Promise<number>;
}

export interface ReadStore {
  collection<T extends Document = AnyDocument>(name: string): ReadCollection<T>;
  /** Declares indexes once; idempotent. The Mongo adapter creates them, the memory adapter enforces unique ones. */
  ensureIndexes(collection: string, indexes: IndexSpec[]): Promise<void>;
  /** Drops a collection with its documents and indexes; no error when it does not exist. */
  drop(collection: string): Promise<void>;
  /** Atomically replaces `to` (dropped when it exists) by `from`, indexes included: how rebuilds swap in. */
  rename(from: string, to: string): Promise<void>;
  listCollections(): Promise<string[]>;
  close(): Promise<void>;
}

export const READ_STORE = Symbol('ReadStore');
