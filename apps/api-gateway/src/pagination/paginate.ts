import { toResource } from '@pss/contracts';
import { nextCursor, pageQuery, type Document, type Filter, type PageOrder, type PageRequest, type ReadCollection } from '@pss/read-store';

// The cursor helpers live in the read store's lib: the dashboard pages with the very same cursors.
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, nextCursor, pageQuery, type PageOrder, type PageRequest } from '@pss/read-store';

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/**
 * One page in a stable order: `field` in `direction`, then `_id` the same way as a tiebreak. Items added while
 * a client pages never shift the pages it has not read yet: no duplicates, no gaps.
 */
export async function paginate<T extends Document, R = ReturnType<typeof toResource<T>>>(
  collection: ReadCollection<T>,
  filter: Filter,
  order: PageOrder,
  request: PageRequest,
  present: (doc: T) => R = (doc) => toResource(doc) as R,
): Promise<Page<R>> {
  const { query, sort, limit } = pageQuery(filter, order, request);
  const docs = await collection.find(query, { sort, limit: limit + 1 });
  return { data: docs.slice(0, limit).map(present), next_cursor: nextCursor(docs, limit, order) };
}
