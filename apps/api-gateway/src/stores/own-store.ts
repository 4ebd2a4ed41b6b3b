import type { ReadStore } from '@pss/read-store';
import { ownStore } from '@pss/store-reads';

export { ownStore };

/** A list filtered by a `store_id` that names none of the organization's stores is 404, like a path id, not an empty page. */
export async function checkStoreFilter(readStore: ReadStore, orgId: string, storeId: string | undefined): Promise<void> {
  if (storeId !== undefined) await ownStore(readStore, orgId, storeId);
}
