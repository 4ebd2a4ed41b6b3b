import type { Document, Filter, FindOptions } from '../read-store.port';
import { namesPrototype } from './field-paths';
import { compileFilter } from './filter-matcher';
import { isIndexableValue, residualFilter, type MemoryIndex } from './memory-index';
import { isCount } from './sort-page';

/**
 * A sorted page read in an index's order: the newest 50 of a store's 10,000 scripts, for one, are found by
 * walking the store's scripts newest first and stopping at the 50th match, instead of matching every candidate
 * and sorting the matches. Another index fixed by the filter's equalities (the store's scripts of one status)
 * is consulted first, by id, so only its members are read. The answer is the one `pageOf(matching(filter))`
 * gives: the index order is the direct sort's (sort-page.ts), total because it ends with `_id`.
 *
 * Undefined when no index holds the sort's order for the filter, when the options are left to mingo, or when
 * the filter's equalities narrow the documents to a few: matching those and sorting them costs less than a walk.
 */
export function orderedPage(indexes: readonly MemoryIndex[], docs: ReadonlyMap<string, Document>, filter: Filter, options: FindOptions): Document[] | undefined {
  const { sort, skip, limit } = options;
  if (!sort || !isCount(skip) || !isCount(limit) || Object.keys(sort).some(namesPrototype) || isIndexableValue(filter._id)) return undefined;
  // The shortest walk: a store's scripts rather than its organization's, when both are in that order.
  let walked: ReturnType<MemoryIndex['orderedIds']>;
  let walkedBy: MemoryIndex | undefined;
  for (const index of indexes) {
    const ids = index.orderedIds(filter, sort);
    if (ids && (!walked || ids.entries.length < walked.entries.length)) [walked, walkedBy] = [ids, index];
  }
  if (!walked || !walkedBy) return undefined;
  const wanted = (skip || 0) + (limit || Infinity);
  let members: ReadonlySet<string> | undefined;
  let narrowedBy: MemoryIndex | undefined;
  for (const index of indexes) {
    const ids = index.lookup(filter);
    if (ids && (!members || ids.size < members.size)) [members, narrowedBy] = [ids, index];
  }
  if (members && members.size <= FEW * wanted) return undefined;
  let rest = residualFilter(filter, walkedBy, 1);
  if (narrowedBy) rest = residualFilter(rest, narrowedBy);
  const matches = compileFilter(rest);
  const { entries, reversed } = walked;
  const found: Document[] = [];
  for (let i = 0; i < entries.length && found.length < wanted; i += 1) {
    const id = entries[reversed ? entries.length - 1 - i : i].id;
    if (members && !members.has(id)) continue;
    const doc = docs.get(id) as Document;
    if (matches(doc)) found.push(doc);
  }
  return skip ? found.slice(skip) : found;
}

/** Below this many candidates per wanted document, matching them all and sorting beats walking the order. */
const FEW = 2;
