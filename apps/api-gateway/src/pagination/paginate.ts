import { toResource } from '@pss/contracts';
import type { Document, Filter, ReadCollection } from '@pss/read-store';
import { decodeCursor, encodeCursor } from './cursor';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

export interface PageRequest {
  limit?: number;
  cursor?: string;
}

/**
 * One page in a stable order: `field` in `direction`, then `_id` the same way as a tiebreak. Items added while
 * a client pages never shift the pages it has not read yet: no duplicates, no gaps.
 */
export async function paginate<T extends Document, R = ReturnType<typeof toResource<T>>>(
  collection: ReadCollection<T>,
  filter: Filter,
  order: { field: string; direction: 1 | -1 },
  request: PageRequest,
  present: (doc: T) => R = (doc) => toResource(doc) as R,
): Promise<Page<R>> {
  const limit = request.limit ?? DEFAULT_PAGE_SIZE;
  const { field, direction } = order;
  const beyond = direction === -1 ? '$lt' : '$gt';
  let query = filter;
  if (request.cursor) {
    const [value, id] = decodeCursor(request.cursor);
    const after = field === '_id' ? { _id: { [beyond]: id } } : { $or: [{ [field]: { [beyond]: value } }, { [field]: value, _id: { [beyond]: id } }] };
    query = { $and: [filter, after] };
  }
  const sort = field === '_id' ? { _id: direction } : { [field]: direction, _id: direction };
  const docs = await collection.find(query, { sort, limit: limit + 1 });
  const page = docs.slice(0, limit);
  const last = page[page.length - 1];
  return {
    data: page.map(present),
    next_cursor: docs.length > limit && last ? encodeCursor([(last as Record<string, unknown>)[field] as string | number, last._id]) : null,
  };
}
