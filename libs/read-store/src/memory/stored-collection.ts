import { DuplicateKeyError, type Document, type Filter, type FindOptions, type IndexSpec, type UpdateSpec } from '../read-store.port';
import { applyUpdate } from './apply-update';
import { compileFilter } from './filter-matcher';
import { isIndexableValue, MemoryIndex, NO_KEYS, residualFilter, type IndexKeys } from './memory-index';
import { orderedPage } from './ordered-page';
import { withoutUnchangedId } from './upserted-document';

/**
 * One collection's documents by `_id` plus its declared indexes. Stored documents are never mutated: an update
 * builds the next version and swaps it in once every unique index accepts it. Versions may share unchanged
 * values with one another; callers see copies, or the versions themselves frozen (`frozenVersion`).
 */
export class StoredCollection {
  /** The top-level fields some index reads: updates that touch none of them leave every index as it is. */
  private readonly indexedRoots = new Set<string>();

  constructor(
    readonly name: string,
    private readonly docs: Map<string, Document>,
    private readonly indexes: MemoryIndex[],
  ) {
    for (const index of indexes) for (const root of index.roots) this.indexedRoots.add(root);
  }

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
    for (const root of wanted.roots) this.indexedRoots.add(root);
  }

  byId(id: string): Document | undefined {
    return this.docs.get(id);
  }

  first(filter: Filter): Document | undefined {
    const id = idLookup(filter);
    if (id !== undefined) return this.docs.get(id);
    const { docs, rest } = this.candidates(filter);
    const matches = compileFilter(rest);
    for (const doc of docs) if (matches(doc)) return doc;
    return undefined;
  }

  matching(filter: Filter): Document[] {
    const id = idLookup(filter);
    if (id !== undefined) return this.docs.has(id) ? [this.docs.get(id) as Document] : [];
    if (Object.keys(filter).length === 0) return [...this.docs.values()];
    const { docs, rest } = this.candidates(filter);
    const matches = compileFilter(rest);
    const found: Document[] = [];
    for (const doc of docs) if (matches(doc)) found.push(doc);
    return found;
  }

  /** A sorted page read in an index's order, or undefined when no index holds it (ordered-page.ts). */
  orderedPage(filter: Filter, options: FindOptions): Document[] | undefined {
    return orderedPage(this.indexes, this.docs, filter, options);
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
    const { $setOnInsert: _onInsertOnly, ...operators } = withoutUnchangedId(spec, current._id);
    const next = applyUpdate(current, operators);
    if (!next) return false;
    if (this.touchesIndexedField(operators)) this.replace(current, next);
    else this.docs.set(next._id, next);
    return true;
  }

  remove(doc: Document): void {
    this.reindex(doc._id, this.keysOf(doc), this.indexes.map(() => NO_KEYS));
    this.docs.delete(doc._id);
  }

  /**
   * Whether an update may change an index key. Every operator changes only the fields it names, so only their
   * top-level names matter, except $rename, which also writes the fields its values name.
   */
  private touchesIndexedField(operators: UpdateSpec): boolean {
    if (this.indexedRoots.size === 0) return false;
    for (const operator of Object.keys(operators)) {
      if (operator === '$rename') return true;
      for (const path of Object.keys(operators[operator])) {
        const dot = path.indexOf('.');
        if (this.indexedRoots.has(dot === -1 ? path : path.slice(0, dot))) return true;
      }
    }
    return false;
  }

  /**
   * The documents a filter can match: one by `_id`, the few an index holds for its equality fields, or all; and
   * what is left of the filter to check on them (the index's equality fields are decided already).
   */
  private candidates(filter: Filter): { docs: Iterable<Document>; rest: Filter } {
    if (isIndexableValue(filter._id)) {
      const doc = this.docs.get(filter._id as string);
      return { docs: doc ? [doc] : [], rest: filter };
    }
    let narrowest: ReadonlySet<string> | undefined;
    let chosen: MemoryIndex | undefined;
    for (const index of this.indexes) {
      const ids = index.lookup(filter);
      if (ids && (!narrowest || ids.size < narrowest.size)) [narrowest, chosen] = [ids, index];
    }
    if (!narrowest || !chosen) return { docs: this.docs.values(), rest: filter };
    const docs: Document[] = [];
    for (const id of narrowest) docs.push(this.docs.get(id) as Document);
    return { docs, rest: residualFilter(filter, chosen) };
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

/** `{ _id: value }` and nothing else: answered from the map without compiling a filter. */
function idLookup(filter: Filter): string | undefined {
  return typeof filter._id === 'string' && Object.keys(filter).length === 1 ? filter._id : undefined;
}
