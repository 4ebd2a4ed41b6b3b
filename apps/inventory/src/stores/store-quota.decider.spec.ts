import { deciderSpec } from '@pss/testkit';
import { storeQuotaDecider, type StoreQuotaEvent } from './store-quota.decider';

const taken = (storeId: string): StoreQuotaEvent => ({ type: 'StoreSlotTaken', data: { orgId: 'org-1', storeId } });
const take = (storeId: string, limit = 1) => ({ type: 'TakeStoreSlot' as const, orgId: 'org-1', storeId, limit, plan: 'essential' });
const spec = deciderSpec(storeQuotaDecider);

describe('store quota decider', () => {
  it('takes a slot while the plan has room', () => {
    spec.given([]).when(take('s1')).then([taken('s1')]);
  });

  it('refuses a slot over the limit with plan_limit', () => {
    spec.given([taken('s1')]).when(take('s2')).thenThrows('plan_limit', /essential plan includes 1 store;/);
  });

  it('is idempotent for a store that holds a slot, and frees it once', () => {
    spec.given([taken('s1')]).when(take('s1')).thenNothingHappens();
    spec.given([taken('s1')]).when({ type: 'FreeStoreSlot', orgId: 'org-1', storeId: 's1' }).then([
      { type: 'StoreSlotFreed', data: { orgId: 'org-1', storeId: 's1' } },
    ]);
    spec.given([]).when({ type: 'FreeStoreSlot', orgId: 'org-1', storeId: 's1' }).thenNothingHappens();
  });
});
