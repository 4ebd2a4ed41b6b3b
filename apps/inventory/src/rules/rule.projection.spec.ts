import { RULES } from '@pss/contracts';
import { expectReplayedTwice, storedEventsOf } from '@pss/testkit';
import type { RuleEvent } from './rule.events';
import { RuleProjection } from './rule.projection';

const stored = storedEventsOf<RuleEvent>('rule');

const created = (ruleId: string, value: string, createdAt: string) =>
  stored(ruleId, 'RuleCreated', { ruleId, orgId: 'o1', storeId: 's1', type: 'block', target: 'domain', value, label: 'Skimmer host', createdAt });

/** Every rule event handled twice in a row, then the whole log again: the same rules as once. */
describe('RuleProjection replayed twice', () => {
  it('shows a rule active from its creation, then as last updated', async () => {
    const events = [
      created('r1', 'evil.example', 'T1'),
      stored('r1', 'RuleUpdated', { ruleId: 'r1', active: false, updatedAt: 'T2' }),
      stored('r1', 'RuleUpdated', { ruleId: 'r1', label: 'Known skimmer host', updatedAt: 'T3' }),
    ];
    await expectReplayedTwice(RuleProjection, events, RULES, [
      {
        _id: 'r1',
        org_id: 'o1',
        store_id: 's1',
        type: 'block',
        target: 'domain',
        value: 'evil.example',
        label: 'Known skimmer host',
        active: false,
        created_at: 'T1',
        updated_at: 'T3',
      },
    ]);
  });

  it('removes a deleted rule, and a replayed deletion does not remove the rule created again since', async () => {
    const events = [
      created('r1', 'evil.example', 'T1'),
      created('r2', 'bad.example', 'T1'),
      stored('r1', 'RuleDeleted', { ruleId: 'r1', deletedAt: 'T2' }),
      stored('r2', 'RuleDeleted', { ruleId: 'r2', deletedAt: 'T2' }),
      created('r1', 'worse.example', 'T3'),
    ];
    await expectReplayedTwice(RuleProjection, events, RULES, [{ _id: 'r1', value: 'worse.example', active: true, created_at: 'T3' }]);
  });
});
