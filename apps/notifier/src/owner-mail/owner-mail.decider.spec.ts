import { deciderSpec } from '@pss/testkit';
import { ownerMailDecider, type OwnerMailEvent } from './owner-mail.decider';

const email: OwnerMailEvent = { type: 'OwnerEmailLearned', data: { orgId: 'o1', email: 'owner@acme.example' } };
const store: OwnerMailEvent = { type: 'StoreLearned', data: { orgId: 'o1', storeId: 's1' } };
const spec = deciderSpec(ownerMailDecider);

describe('owner mail decider', () => {
  it("learns the owner's address and each store once, in either order", () => {
    spec.given([]).when({ type: 'LearnOwnerEmail', orgId: 'o1', email: 'owner@acme.example' }).then([email]);
    spec.given([store]).when({ type: 'LearnOwnerEmail', orgId: 'o1', email: 'owner@acme.example' }).then([email]);
    spec.given([email]).when({ type: 'LearnOwnerEmail', orgId: 'o1', email: 'other@acme.example' }).thenNothingHappens();
    spec.given([email]).when({ type: 'LearnStore', orgId: 'o1', storeId: 's1' }).then([store]);
    spec.given([store, email]).when({ type: 'LearnStore', orgId: 'o1', storeId: 's1' }).thenNothingHappens();
    expect([store, email].reduce(ownerMailDecider.evolve, ownerMailDecider.initialState())).toEqual({
      email: 'owner@acme.example',
      stores: ['s1'],
      suspended: [],
    });
  });

  it("remembers a store's suspension, even one announced before the store", () => {
    const suspended: OwnerMailEvent = { type: 'StoreSuspensionLearned', data: { orgId: 'o1', storeId: 's1' } };

    spec.given([]).when({ type: 'LearnStoreSuspended', orgId: 'o1', storeId: 's1' }).then([suspended]);
    spec.given([suspended]).when({ type: 'LearnStoreSuspended', orgId: 'o1', storeId: 's1' }).thenNothingHappens();
    spec.given([suspended]).when({ type: 'LearnStore', orgId: 'o1', storeId: 's1' }).then([store]);
    expect([suspended, store].reduce(ownerMailDecider.evolve, ownerMailDecider.initialState())).toEqual({ stores: ['s1'], suspended: ['s1'] });
  });
});
