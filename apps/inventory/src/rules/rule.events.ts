import type { DomainEvent } from '@pss/kernel';
import type { RuleTarget, RuleType } from '@pss/contracts';

/** A rule is active from its creation until a RuleUpdated says otherwise. */
export type RuleEvent =
  | DomainEvent<
      'RuleCreated',
      { ruleId: string; orgId: string; storeId: string; type: RuleType; target: RuleTarget; value: string; label: string; createdAt: string }
    >
  // storeId was added later: the published fact names the store (older events lack it).
  | DomainEvent<'RuleUpdated', { ruleId: string; storeId?: string; label?: string; active?: boolean; updatedAt: string }>
  | DomainEvent<'RuleDeleted', { ruleId: string; storeId?: string; deletedAt: string }>;

/** Every kind of rule event, once (the rule projection and the audit log read them all). */
export const ruleEventTypes: Record<RuleEvent['type'], true> = { RuleCreated: true, RuleUpdated: true, RuleDeleted: true };

export const ruleStream = (ruleId: string): string => `rule-${ruleId}`;
