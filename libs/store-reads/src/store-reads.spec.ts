import { PAYMENT_PAGES, STORES, type PaymentPageDocument, type StoreDocument } from '@pss/contracts';
import { MemoryReadStore } from '@pss/read-store';
import { listPaymentPages, ownStore } from './store-reads';

const store = { _id: 'store-1', org_id: 'org-a', name: 'Loja', status: 'active' } as StoreDocument;
const page = (id: string, storeId = 'store-1'): PaymentPageDocument => ({
  _id: id,
  store_id: storeId,
  org_id: 'org-a',
  url_pattern: `/checkout/${id}`,
  url: `https://loja.example/checkout/${id}`,
  domain: 'loja.example',
  is_payment_page: true,
  mode: 'monitor',
  payment_methods: ['card'],
  status: 'active',
  created_at: '2026-11-20T12:00:00.000Z',
});

async function readModels(): Promise<MemoryReadStore> {
  const readStore = new MemoryReadStore();
  await readStore.collection<StoreDocument>(STORES).insertOne(store);
  for (const doc of [page('page-2'), page('page-1'), page('page-9', 'store-2')]) await readStore.collection<PaymentPageDocument>(PAYMENT_PAGES).insertOne(doc);
  return readStore;
}

describe('store reads', () => {
  it("finds the organization's own store, and answers another tenant's like a missing one: 404", async () => {
    const readStore = await readModels();
    expect(await ownStore(readStore, 'org-a', 'store-1')).toMatchObject({ _id: 'store-1', name: 'Loja' });
    await expect(ownStore(readStore, 'org-b', 'store-1')).rejects.toMatchObject({ code: 'not_found', message: 'Store not found' });
    await expect(ownStore(readStore, 'org-a', 'store-404')).rejects.toMatchObject({ code: 'not_found' });
  });

  it("lists a store's payment pages as resources, oldest id first, without org_id, optionally only some", async () => {
    const readStore = await readModels();
    const pages = await listPaymentPages(readStore, 'store-1');
    expect(pages.map((p) => p.id)).toEqual(['page-1', 'page-2']);
    expect(pages[0]).not.toHaveProperty('org_id');
    expect(pages[0]).not.toHaveProperty('_id');
    expect(pages[0]).toMatchObject({ store_id: 'store-1', url_pattern: '/checkout/page-1' });
    expect((await listPaymentPages(readStore, 'store-1', ['page-2', 'page-9'])).map((p) => p.id)).toEqual(['page-2']);
  });
});
