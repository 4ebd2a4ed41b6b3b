import type { StoreChoice } from './email-channels';

/** What a list page read by cursor shows besides its rows: the stores it names, where its pages go, a cursor refused. */
export interface PagedListView {
  stores: StoreChoice[];
  nextCursor: string | null;
  /** Whether this is a page after the first (the first page's link is offered). */
  paged: boolean;
  staleCursor?: boolean;
}

/**
 * The addresses of a filtered list's first and next pages (cursorPages' links): the filter's set values kept in the
 * query, so paging never loses what the reader chose; the first page only once they have paged.
 */
export function listLinks(page: string, filter: Record<string, string | boolean | undefined>, paged: boolean, nextCursor: string | null): { first: string | null; next: string | null } {
  const address = (cursor?: string) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries({ ...filter, cursor })) if (value !== undefined && value !== '') params.set(name, String(value));
    const query = params.toString();
    return query ? `${page}?${query}` : page;
  };
  return { first: paged ? address() : null, next: nextCursor ? address(nextCursor) : null };
}
