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
    expect([store, email].reduce(ownerMailDecider.evolve, ownerMailDecider.initialState())).toEqual({ email: 'owner@acme.example', stores: ['s1'] });
  });
});
