import type { Document, FindOptions, SortSpec } from '../read-store.port';
import { isDate, namesPrototype } from './field-paths';
import { topLevelReader } from './filter-matcher';
import { MINGO_OPTIONS, Query, resolve } from './mingo';

/**
 * The page `find` returns: sorted, then skipped, then limited, whatever the order of the options, as a cursor
 * does; 0 for skip or limit means none, as on MongoDB. Sorted directly when every sort value is a scalar mingo
 * orders simply, by a mingo cursor otherwise (arrays, objects, NaN, invalid dates, odd skips and limits).
 */
export function pageOf(docs: Document[], options: FindOptions): Document[] {
  const sort = options.sort && Object.keys(options.sort).length > 0 ? options.sort : undefined;
  const { skip, limit } = options;
  if (!sort && !skip && !limit) return docs;
  return directPage(docs, sort, skip, limit) ?? mingoPage(docs, sort, skip, limit);
}

/** The page without mingo, or undefined when mingo must make it. */
export function directPage(docs: Document[], sort: SortSpec | undefined, skip?: number, limit?: number): Document[] | undefined {
  if (!isCount(skip) || !isCount(limit)) return undefined;
  if (sort && Object.keys(sort).some(namesPrototype)) return undefined;
  const start = skip || 0;
  const end = limit ? start + limit : undefined;
  // Nothing to order among 0 or 1 documents; this is the common answer to a lookup by a unique field.
  if (!sort || docs.length <= 1) return docs.slice(start, end);
  return sortedDirectly(docs, sort, end)?.slice(start, end);
}

function mingoPage(docs: Document[], sort: SortSpec | undefined, skip?: number, limit?: number): Document[] {
  const cursor = new Query({}, MINGO_OPTIONS).find<Document>(docs);
  if (sort) cursor.sort(sort);
  if (skip) cursor.skip(skip);
  if (limit) cursor.limit(limit);
  return cursor.all();
}

/** A skip or limit a slice applies as mingo does: none, or a whole positive number (mingo refuses negative ones). */
export function isCount(value: number | undefined): boolean {
  return !value || (Number.isInteger(value) && value > 0);
}

/** Per sort field, its type's rank in mingo's order, then a value comparable within that type. */
export type SortKeys = Array<number | string>;

interface Row {
  doc: Document;
  index: number;
  keys: SortKeys;
}

/**
 * mingo's sort of these values: by type first (null and missing, which sort together, then numbers, strings,
 * booleans, dates), then by value within a type; ties keep the order the documents came in, for every direction.
 */
const RANK = { null: 2, number: 3, string: 4, boolean: 9, date: 10 };

/** The first `count` documents in sort order (all of them without a count). */
function sortedDirectly(docs: Document[], sort: SortSpec, count = docs.length): Document[] | undefined {
  const fields = Object.keys(sort);
  const directions = fields.map((field) => (sort[field] === -1 ? -1 : 1));
  const readers = fields.map((field) => (field.includes('.') ? (doc: Document) => resolve(doc, field) : topLevelReader(field)));
  const rows: Row[] = [];
  for (let index = 0; index < docs.length; index += 1) {
    const keys: SortKeys = [];
    for (const read of readers) {
      if (!pushSortKey(keys, read(docs[index]))) return undefined;
    }
    rows.push({ doc: docs[index], index, keys });
  }
  // The input position breaks ties, so the order is total and any sorting method gives the same documents.
  const compareRows = (a: Row, b: Row): number => compareSortKeys(a.keys, b.keys, directions) || a.index - b.index;
  const sorted = count < rows.length / 2 ? firstRows(rows, count, compareRows) : rows.sort(compareRows);
  return sorted.map((row) => row.doc);
}

/**
 * The `count` smallest rows in order, for a page much shorter than the matches: most rows lose against the
 * largest kept one at the first comparison, where a full sort would compare each about log2(n) times.
 */
function firstRows(rows: Row[], count: number, compareRows: (a: Row, b: Row) => number): Row[] {
  const kept: Row[] = [];
  for (const row of rows) {
    if (kept.length === count && compareRows(row, kept[count - 1]) >= 0) continue;
    let low = 0;
    let high = kept.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareRows(kept[middle], row) < 0) low = middle + 1;
      else high = middle;
    }
    kept.splice(low, 0, row);
    if (kept.length > count) kept.pop();
  }
  return kept;
}

/** The order of two documents' sort keys, each field in its direction (1 or -1); 0 when they tie. */
export function compareSortKeys(a: SortKeys, b: SortKeys, directions: readonly number[]): number {
  for (let i = 0; i < directions.length; i += 1) {
    const order = compareScalars(a[2 * i], b[2 * i]) || compareScalars(a[2 * i + 1], b[2 * i + 1]);
    if (order !== 0) return order * directions[i];
  }
  return 0;
}

/**
 * The sort keys of a document's values for the sort fields, as an index read them (a missing field is null);
 * undefined when one is a value only mingo orders, or what an index reads in an empty array.
 */
export function sortKeysOf(values: readonly unknown[]): SortKeys | undefined {
  const keys: SortKeys = [];
  for (const value of values) if (value === undefined || !pushSortKey(keys, value)) return undefined;
  return keys;
}

/** Appends the rank and the comparable value of a sort value; false for a value only mingo orders. */
function pushSortKey(keys: SortKeys, value: unknown): boolean {
  if (value === undefined || value === null) keys.push(RANK.null, 0);
  else if (typeof value === 'number' && !Number.isNaN(value)) keys.push(RANK.number, value);
  else if (typeof value === 'string') keys.push(RANK.string, value);
  else if (typeof value === 'boolean') keys.push(RANK.boolean, value ? 1 : 0);
  else if (isDate(value) && !Number.isNaN(value.getTime())) keys.push(RANK.date, value.getTime());
  else return false;
  return true;
}

function compareScalars(a: number | string, b: number | string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
