import { POLICY_CONDITION_KEYS, POLICY_MATCH_ITEMS, POLICY_MATCH_LIST_MAX, POLICY_MATCH_ORIGINS, type PolicyConditions } from '../read-models/policy';
import type { FieldRefusal } from './field-refusals';

/** The number conditions' ranges; the other conditions are true or false. */
export const POLICY_NUMBER_CONDITIONS: Partial<Record<keyof PolicyConditions, { min: number; max: number }>> = {
  prevalence_min: { min: 0, max: 1 },
  max_size_kb: { min: 0, max: Infinity },
};

function matchListRefusals(key: keyof typeof POLICY_MATCH_ITEMS): FieldRefusal[] {
  const rule = POLICY_MATCH_ITEMS[key];
  const field = `match.${key}`;
  return [
    { field, reason: 'list_size', message: `${field} must be a list of 1 to ${POLICY_MATCH_LIST_MAX} items: leave it out to match any`, params: { max: POLICY_MATCH_LIST_MAX } },
    { field, reason: 'item_length', message: `${field} items must be 1 to ${rule.max} characters`, params: { max: rule.max } },
    ...('form' in rule ? [{ field, reason: rule.form.reason, message: rule.form.message }] : []),
  ];
}

/** How a condition's value is refused: its range for a number condition, true or false for the others. */
export function policyConditionRefusal(key: keyof PolicyConditions): FieldRefusal {
  const field = `conditions.${key}`;
  const range = POLICY_NUMBER_CONDITIONS[key];
  if (!range) return { field, reason: 'boolean', message: `${field} must be true or false` };
  if (range.max === Infinity) return { field, reason: 'at_least', message: `${field} must be a number of at least ${range.min}`, params: { min: range.min } };
  return { field, reason: 'between', message: `${field} must be a number from ${range.min} to ${range.max}`, params: { min: range.min, max: range.max } };
}

/** What the policy commands (and the API's body check) refuse in a match or conditions, by field and reason. */
export const POLICY_TERMS_REFUSALS: readonly FieldRefusal[] = [
  { field: 'match.origin', reason: 'one_of', message: `match.origin must be one of ${POLICY_MATCH_ORIGINS.join(', ')}`, params: { values: POLICY_MATCH_ORIGINS.join(', ') } },
  ...(Object.keys(POLICY_MATCH_ITEMS) as (keyof typeof POLICY_MATCH_ITEMS)[]).flatMap(matchListRefusals),
  ...POLICY_CONDITION_KEYS.map(policyConditionRefusal),
];
