import { PAYMENT_PAGES, STORES, toResource, type PaymentPageDocument, type StoreDocument } from '@pss/contracts';
import { notFound } from '@pss/kernel';
import type { ReadStore } from '@pss/read-store';

/** The acting organization's store: another tenant's and a store that does not exist are the same 404. */
export async function ownStore(readStore: ReadStore, orgId: string, storeId: string): Promise<StoreDocument> {
  const store = await readStore.collection<StoreDocument>(STORES).findOne({ _id: storeId, org_id: orgId });
  if (!store) throw notFound('Store');
  return store;
}

/** A store's payment pages as the API shows them, oldest first: one query for the gateway and inventory. */
export async function listPaymentPages(readStore: ReadStore, storeId: string, ids?: string[]) {
  const filter = ids ? { store_id: storeId, _id: { $in: ids } } : { store_id: storeId };
  const pages = await readStore.collection<PaymentPageDocument>(PAYMENT_PAGES).find(filter, { sort: { _id: 1 } });
  return pages.map(({ org_id: _org, ...page }) => toResource(page));
}
