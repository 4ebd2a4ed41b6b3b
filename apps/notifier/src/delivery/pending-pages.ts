import type { Filter, ReadCollection } from '@pss/read-store';
import type { PendingDelivery } from './delivery.projection';

const PAGE_SIZE = 500;

/**
 * The pending deliveries that match `filter`, in keyset pages by due time then id. A page's attempts may be under
 * way while the next is read: an attempt moves its delivery's due time forward, never back, so no delivery is met twice.
 */
export async function* pendingPages(pending: ReadCollection<PendingDelivery>, filter: Filter): AsyncGenerator<PendingDelivery[]> {
  for (let after: PendingDelivery | undefined; ; ) {
    const beyond = after ? { $or: [{ due_at: { $gt: after.due_at } }, { due_at: after.due_at, _id: { $gt: after._id } }] } : {};
    const page = await pending.find({ ...filter, ...beyond }, { sort: { due_at: 1, _id: 1 }, limit: PAGE_SIZE });
    yield page;
    if (page.length < PAGE_SIZE) return;
    after = page[page.length - 1];
  }
}
