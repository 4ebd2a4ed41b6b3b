import type { CreateRuleInput, RuleChanges, RuleTarget, RuleType } from '@pss/contracts';

/** GET /rules' and POST /rules' choices, in the order the form offers them. */
export const RULE_TYPES: readonly RuleType[] = ['block', 'allow'];
export const RULE_TARGETS: readonly RuleTarget[] = ['domain', 'url', 'hash'];

/** ruleCreate's input as the form typed it; inventory checks each target's form and refuses naming the field. */
export const ruleCreation = (form: Record<string, string>): CreateRuleInput => ({
  store_id: form.store_id ?? '',
  type: form.type as RuleType,
  target: form.target as RuleTarget,
  value: (form.value ?? '').trim(),
  ...(form.label?.trim() ? { label: form.label.trim() } : {}),
});

/** ruleUpdate's input: the label and whether the rule acts (an unchecked box is absent from a form). */
export const ruleChanges = (form: Record<string, string>): RuleChanges => ({ label: form.label ?? '', active: form.active === 'on' });

/** Deactivating is a change of `active` alone: the label stays as it is. */
export const DEACTIVATION: RuleChanges = { active: false };
