import { decodeCursor, encodeCursor } from '@pss/kernel';
import type { Document, Filter, SortSpec } from './read-store.port';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

export interface PageRequest {
  limit?: number;
  cursor?: string;
}

/** The order of a page: a field and its direction, `_id` breaking ties. */
export interface PageOrder {
  field: string;
  direction: 1 | -1;
}

/**
 * The find that reads a page: the filter past the cursor, the sort, and the page size (one more is read). Shared
 * by the API's lists and the dashboard's, so a cursor means the same page to both.
 */
export function pageQuery(filter: Filter, order: PageOrder, request: PageRequest): { query: Filter; sort: SortSpec; limit: number } {
  const limit = request.limit ?? DEFAULT_PAGE_SIZE;
  const { field, direction } = order;
  const beyond = direction === -1 ? '$lt' : '$gt';
  let query = filter;
  if (request.cursor) {
    const [value, id] = decodeCursor(request.cursor, field);
    const after = field === '_id' ? { _id: { [beyond]: id } } : { $or: [{ [field]: { [beyond]: value } }, { [field]: value, _id: { [beyond]: id } }] };
    query = { $and: [filter, after] };
  }
  const sort: SortSpec = field === '_id' ? { _id: direction } : { [field]: direction, _id: direction };
  return { query, sort, limit };
}

/** The cursor past a page of `limit` read from `docs` (up to `limit + 1`): null when nothing is left after it. */
export function nextCursor(docs: ReadonlyArray<Document>, limit: number, order: PageOrder): string | null {
  const last = docs[Math.min(docs.length, limit) - 1];
  return docs.length > limit && last ? encodeCursor([(last as Record<string, unknown>)[order.field] as string | number, last._id]) : null;
}
