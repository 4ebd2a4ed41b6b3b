import { yieldToRequests } from '@pss/kernel';
import {
  DuplicateKeyError,
  type AnyDocument,
  type Document,
  type Filter,
  type FindOptions,
  type Frozen,
  type ReadCollection,
  type UpdateResult,
  type UpdateSpec,
} from '../read-store.port';
import { freezeDocument } from '../freeze-document';
import { applyUpdate } from './apply-update';
import { copyDocument } from './copy-document';
import { compileFilter } from './filter-matcher';
import { setInPlace } from './set-in-place';
import { upsertedDocument, withoutUnchangedId } from './upserted-document';

/** A document as this batch knows it: `null` when the target holds none under that id. */
interface Held {
  doc: Document | null;
  dirty: boolean;
}

/** What a batch holds of one collection, by `_id`; kept by the caller so that every handle shares it. */
export type HeldDocuments = Map<string, Held>;

const NOTHING_MATCHED: UpdateResult = { matched: 0, modified: 0, upserted: false };

/**
 * A write-back cache of one collection for a batch of writes by one writer (a replay applying a page of events):
 * reads and updates addressed by `_id` are answered from the documents held in memory, each loaded once from the
 * target, and `flush()` writes every changed document once. A page of 1,000 events that touches 500 documents
 * makes 500 writes instead of 1,000, and no filter is sent to the target for the position guard of each event.
 *
 * Semantics are those of the target as far as one writer can see them: filters and updates are evaluated with the
 * memory adapter's MongoDB semantics; an upsert whose filter misses an existing `_id` collides as it would on the
 * target. Anything not addressed by `_id` (find, count, updateMany, deleteMany) flushes first and goes to the
 * target, so it sees every earlier write. What the batch cannot see is a secondary unique index: a collision on one
 * surfaces at `flush()`, not at the write. Only for collections nobody else writes meanwhile (rebuild shadows,
 * a replay into a fresh store): `flush()` replaces whole documents.
 */
export class WriteBackCollection<T extends Document = AnyDocument> implements ReadCollection<T> {
  constructor(
    private readonly target: ReadCollection<T>,
    private readonly held: HeldDocuments = new Map(),
  ) {}

  get name(): string {
    return this.target.name;
  }

  async findOne(filter: Filter): Promise<T | null> {
    const id = addressedId(filter);
    if (id === undefined) {
      await this.flush();
      return this.target.findOne(filter);
    }
    const { doc } = await this.hold(id);
    return doc && matches(filter, doc) ? copyDocument<T>(doc) : null;
  }

  async find(filter: Filter, options?: FindOptions): Promise<T[]> {
    await this.flush();
    return this.target.find(filter, options);
  }

  async findOneFrozen(filter: Filter): Promise<Frozen<T> | null> {
    const doc = await this.findOne(filter);
    if (doc) freezeDocument(doc);
    return doc as Frozen<T> | null;
  }

  async findFrozen(filter: Filter, options?: FindOptions): Promise<ReadonlyArray<Frozen<T>>> {
    await this.flush();
    return this.target.findFrozen(filter, options);
  }

  async count(filter: Filter): Promise<number> {
    await this.flush();
    return this.target.count(filter);
  }

  async insertOne(doc: T): Promise<void> {
    const held = await this.hold(doc._id);
    if (held.doc) throw new DuplicateKeyError(this.name, { _id: doc._id });
    this.change(held, structuredClone(doc));
  }

  async upsert(doc: T): Promise<void> {
    this.change(await this.hold(doc._id), structuredClone(doc));
  }

  async updateOne(filter: Filter, update: UpdateSpec, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    const id = addressedId(filter);
    if (id === undefined) {
      await this.flush();
      return this.target.updateOne(filter, update, options);
    }
    return this.updateById(id, update, { upsert: options.upsert, when: (doc) => matches(filter, doc), filter });
  }

  /**
   * `updateOne` of document `id` when `when(doc)` holds, the predicate standing for the filter's other clauses:
   * a caller with a fixed guard (a projection's position check) saves compiling a filter per write. `filter`
   * seeds an upserted document with its equality fields, as an upsert's filter does.
   */
  async updateById(
    id: string,
    update: UpdateSpec,
    options: { upsert?: boolean; when?: (doc: Document) => boolean; filter?: Filter } = {},
  ): Promise<UpdateResult> {
    const held = this.held.get(id) ?? (await this.hold(id));
    if (held.doc && (!options.when || options.when(held.doc))) {
      const operators = withoutInsertOnly(withoutUnchangedId(update, id));
      // A dirty document is a version this batch made and has not written yet, so nobody else holds it.
      const changedInPlace = held.dirty ? setInPlace(held.doc, operators) : undefined;
      if (changedInPlace !== undefined) return { matched: 1, modified: changedInPlace ? 1 : 0, upserted: false };
      const next = applyUpdate(held.doc, operators);
      if (next) this.change(held, next);
      return { matched: 1, modified: next ? 1 : 0, upserted: false };
    }
    if (!options.upsert) return NOTHING_MATCHED;
    // The upsert would insert a document with this `_id`, which the target refuses when it holds one already.
    if (held.doc) throw new DuplicateKeyError(this.name, { _id: id });
    this.change(held, upsertedDocument(options.filter ?? { _id: id }, update));
    return { matched: 0, modified: 0, upserted: true };
  }

  async updateMany(filter: Filter, update: UpdateSpec): Promise<UpdateResult> {
    await this.flush();
    this.held.clear(); // the target changed documents this batch may hold
    return this.target.updateMany(filter, update);
  }

  async deleteMany(filter: Filter): Promise<number> {
    await this.flush();
    this.held.clear();
    return this.target.deleteMany(filter);
  }

  /** Writes every document changed since the last flush, once each, yielding to requests between slices. */
  async flush(): Promise<void> {
    for (const held of this.held.values()) {
      if (!held.dirty || !held.doc) continue;
      await yieldToRequests();
      await this.target.upsert(held.doc as T);
      held.dirty = false;
    }
  }

  private async hold(id: string): Promise<Held> {
    let held = this.held.get(id);
    if (!held) {
      held = { doc: await this.target.findOne({ _id: id }), dirty: false };
      this.held.set(id, held);
    }
    return held;
  }

  private change(held: Held, next: Document): void {
    held.doc = next;
    held.dirty = true;
  }
}

/** The `_id` a filter names by equality (alone or beside other clauses), which pins it to one document. */
function addressedId(filter: Filter): string | undefined {
  return typeof filter._id === 'string' ? filter._id : undefined;
}

function matches(filter: Filter, doc: Document): boolean {
  return Object.keys(filter).length === 1 || compileFilter(filter)(doc);
}

/** The operators an update applies to an existing document: all but `$setOnInsert` (no object rest: hot path). */
function withoutInsertOnly(update: UpdateSpec): UpdateSpec {
  if (!('$setOnInsert' in update)) return update;
  const operators = Object.assign({}, update);
  delete operators.$setOnInsert;
  return operators;
}
