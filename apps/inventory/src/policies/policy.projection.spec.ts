import { POLICIES } from '@pss/contracts';
import { expectReplayedTwice, storedEventsOf } from '@pss/testkit';
import type { PolicyEvent } from './policy.decider';
import { PolicyProjection } from './policy.projection';

const stored = storedEventsOf<PolicyEvent>('policy');

const created = (policyId: string, name: string, createdAt: string) =>
  stored(policyId, 'PolicyCreated', {
    policyId,
    orgId: 'o1',
    storeId: 's1',
    name,
    description: null,
    active: true,
    mode: 'recommend',
    priority: 10,
    match: { origin: 'third_party', category: ['analytics'] },
    conditions: { prevalence_min: 3 },
    action: 'authorize',
    justificationTemplate: 'Analytics from {vendor}',
    expiresDays: 90,
    version: 1,
    isDefault: false,
    createdAt,
  });

/** Every policy event handled twice in a row, then the whole log again: the same policies as once. */
describe('PolicyProjection replayed twice', () => {
  it('shows a policy as last updated, with the API’s field names', async () => {
    const events = [
      created('p1', 'Analytics', 'T1'),
      stored('p1', 'PolicyUpdated', { policyId: 'p1', changes: { priority: 5, justificationTemplate: null, expiresDays: 30 }, version: 2, updatedAt: 'T2' }),
      stored('p1', 'PolicyUpdated', { policyId: 'p1', changes: { active: false, mode: 'auto' }, version: 2, updatedAt: 'T3' }),
    ];
    await expectReplayedTwice(PolicyProjection, events, POLICIES, [
      {
        _id: 'p1',
        org_id: 'o1',
        store_id: 's1',
        name: 'Analytics',
        description: null,
        version: 2,
        active: false,
        mode: 'auto',
        priority: 5,
        match: { origin: 'third_party', category: ['analytics'] },
        conditions: { prevalence_min: 3 },
        action: 'authorize',
        justification_template: null,
        expires_days: 30,
        is_default: false,
        created_at: 'T1',
        updated_at: 'T3',
      },
    ]);
  });

  it('removes a deleted policy, and a replayed deletion does not remove the policy created again since', async () => {
    const events = [
      created('p1', 'First', 'T1'),
      created('p2', 'Gone', 'T1'),
      stored('p1', 'PolicyDeleted', { policyId: 'p1', deletedAt: 'T2' }),
      stored('p2', 'PolicyDeleted', { policyId: 'p2', deletedAt: 'T2' }),
      created('p1', 'Again', 'T3'),
    ];
    await expectReplayedTwice(PolicyProjection, events, POLICIES, [{ _id: 'p1', name: 'Again', created_at: 'T3' }]);
  });
});
