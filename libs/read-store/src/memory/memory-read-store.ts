import type {
  Document,
  Filter,
  FindOptions,
  Frozen,
  IndexSpec,
  ReadCollection,
  ReadStore,
  UpdateResult,
  UpdateSpec,
} from '../read-store.port';
import { copyDocument } from './copy-document';
import { frozenVersion } from './frozen-version';
import { pageOf } from './sort-page';
import { StoredCollection } from './stored-collection';
import { upsertedDocument } from './upserted-document';

/**
 * The embedded read store: collections held in memory, queried and updated with the same documents as MongoDB,
 * with mingo's semantics (the common filters, updates and sorts evaluated directly, the rest by mingo). Nothing
 * is persisted here: read models are rebuilt from the event store at start, or loaded from a snapshot of them
 * (`documents`, `restore`; see @pss/projections' read-model snapshots) and caught up from there.
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

  /**
   * The documents of a collection as they are now, for a snapshot: stored versions are never changed in place,
   * so the array stays as of this call while writes go on. Callers must not change them.
   */
  documents(collection: string): readonly Document[] {
    return this.collections.get(collection)?.matching({}) ?? [];
  }

  /** Replaces a collection by these documents (a snapshot loaded at start); its owner declares its indexes after. */
  restore(collection: string, docs: readonly Document[]): void {
    this.collections.set(collection, new StoredCollection(collection, new Map(docs.map((doc) => [doc._id, doc])), []));
  }

  async close(): Promise<void> {
    this.collections.clear();
  }
}

const NOTHING_MATCHED: UpdateResult = { matched: 0, modified: 0, upserted: false };

/**
 * A handle by name, like a driver collection: it finds its data at each call, so it sees drops and renames made
 * after it was taken. Reads never create the collection; writes do, as on MongoDB. Documents cross the boundary
 * as copies both ways, except the frozen reads' (`findFrozen`), which hand out the stored versions themselves.
 */
class MemoryReadCollection<T extends Document> implements ReadCollection<T> {
  constructor(
    readonly name: string,
    private readonly collections: Map<string, StoredCollection>,
  ) {}

  async findOne(filter: Filter): Promise<T | null> {
    const doc = this.stored?.first(filter);
    return doc ? copyDocument<T>(doc) : null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return this.page(filter, options).map((doc) => copyDocument<T>(doc));
  }

  async findOneFrozen(filter: Filter): Promise<Frozen<T> | null> {
    const doc = this.stored?.first(filter);
    return doc ? frozenVersion<T>(doc) : null;
  }

  async findFrozen(filter: Filter, options: FindOptions = {}): Promise<ReadonlyArray<Frozen<T>>> {
    return this.page(filter, options).map((doc) => frozenVersion<T>(doc));
  }

  async count(filter: Filter): Promise<number> {
    return this.stored?.matching(filter).length ?? 0;
  }

  async insertOne(doc: T): Promise<void> {
    this.open().insert(copyDocument(doc));
  }

  async upsert(doc: T): Promise<void> {
    const stored = this.open();
    const current = stored.byId(doc._id);
    if (current) stored.replace(current, copyDocument(doc));
    else stored.insert(copyDocument(doc));
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

  private page(filter: Filter, options: FindOptions): Document[] {
    const stored = this.stored;
    return stored?.orderedPage(filter, options) ?? pageOf(stored?.matching(filter) ?? [], options);
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
