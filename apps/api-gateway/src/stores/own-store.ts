import { STORES, type StoreDocument } from '@pss/contracts';
import { notFound } from '@pss/kernel';
import type { ReadStore } from '@pss/read-store';

/** The acting organization's store: another tenant's and a store that does not exist are the same 404. */
export async function ownStore(readStore: ReadStore, orgId: string, storeId: string): Promise<StoreDocument> {
  const store = await readStore.collection<StoreDocument>(STORES).findOne({ _id: storeId, org_id: orgId });
  if (!store) throw notFound('Store');
  return store;
}

/** A list filtered by a `store_id` that names none of the organization's stores is 404, like a path id, not an empty page. */
export async function checkStoreFilter(readStore: ReadStore, orgId: string, storeId: string | undefined): Promise<void> {
  if (storeId !== undefined) await ownStore(readStore, orgId, storeId);
}
