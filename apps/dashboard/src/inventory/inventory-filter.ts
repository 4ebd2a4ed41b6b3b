import type { ScriptFilter } from '@pss/dashboard-reads';

/** The inventory page's filter as the form has it: GET /scripts's query params, and the store's payment page. */
export const INVENTORY_FIELDS = ['store_id', 'payment_page_id', 'status', 'type', 'integrity_status', 'category'] as const;
export type InventoryField = (typeof INVENTORY_FIELDS)[number];
export type InventorySearch = Record<InventoryField, string>;

export const inventorySearchOf = (query: Record<string, string>): InventorySearch =>
  Object.fromEntries(INVENTORY_FIELDS.map((field) => [field, (query[field] ?? '').trim()])) as InventorySearch;

/** The filter the reads take: a field left blank filters nothing (`category=` would filter to nothing in the API). */
export function scriptFilterOf(search: InventorySearch): ScriptFilter {
  const filter: ScriptFilter = {};
  for (const field of INVENTORY_FIELDS) if (search[field]) filter[field] = search[field];
  // A payment page belongs to one store: changing the store drops the other store's page.
  if (!filter.store_id) delete filter.payment_page_id;
  return filter;
}

/** `?field=value…` of the filled fields (and the cursor of the next page), for links to the page and its CSV. */
export function inventoryQueryString(search: InventorySearch, cursor?: string): string {
  const params = new URLSearchParams();
  for (const [field, value] of Object.entries(scriptFilterOf(search))) params.set(field, value);
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return query ? `?${query}` : '';
}
