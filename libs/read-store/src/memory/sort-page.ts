import type { Document, FindOptions, SortSpec } from '../read-store.port';
import { isDate, namesPrototype, ownField } from './field-paths';
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
function isCount(value: number | undefined): boolean {
  return !value || (Number.isInteger(value) && value > 0);
}

interface Row {
  doc: Document;
  index: number;
  /** Per sort field, its type's rank in mingo's order, then a value comparable within that type. */
  keys: Array<number | string>;
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
  const rows: Row[] = [];
  for (let index = 0; index < docs.length; index += 1) {
    const keys: Array<number | string> = [];
    for (const field of fields) {
      if (!pushSortKey(keys, field.includes('.') ? resolve(docs[index], field) : ownField(docs[index], field))) return undefined;
    }
    rows.push({ doc: docs[index], index, keys });
  }
  // The input position breaks ties, so the order is total and any sorting method gives the same documents.
  const compareRows = (a: Row, b: Row): number => {
    for (let i = 0; i < directions.length; i += 1) {
      const order = compareScalars(a.keys[2 * i], b.keys[2 * i]) || compareScalars(a.keys[2 * i + 1], b.keys[2 * i + 1]);
      if (order !== 0) return order * directions[i];
    }
    return a.index - b.index;
  };
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

/** Appends the rank and the comparable value of a sort value; false for a value only mingo orders. */
function pushSortKey(keys: Array<number | string>, value: unknown): boolean {
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
