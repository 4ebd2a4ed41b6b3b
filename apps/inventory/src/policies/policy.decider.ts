import { DomainError, sameJson, validationError, type Decider, type DomainEvent, type ErrorDetail } from '@pss/kernel';
import {
  POLICY_ACTIONS,
  POLICY_CONDITION_KEYS,
  POLICY_MATCH_ITEMS,
  POLICY_MATCH_KEYS,
  POLICY_MATCH_LIST_MAX,
  POLICY_MATCH_ORIGINS,
  POLICY_MODES,
  POLICY_NUMBER_CONDITIONS,
  policyConditionRefusal,
  POLICY_TERMS_REFUSALS,
  refusalDetail,
  type PolicyConditions,
  type PolicyMatch,
  type PolicyTerms,
} from '@pss/contracts';

export const POLICY_NAME_MAX = 120;
export const POLICY_DESCRIPTION_MAX = 1000;
/** A template expands into a justification, and justifications are capped at 2000 characters (spec, Limits). */
export const JUSTIFICATION_TEMPLATE_MAX = 2000;

/** What a policy says. Changing match, conditions, action, justificationTemplate or expiresDays is a new version. */
export interface PolicyDefinition extends PolicyTerms {
  name: string;
  description: string | null;
  /** May contain `{domain}`, `{vendor}`, `{path}`. */
  justificationTemplate: string | null;
  expiresDays: number | null;
}

export interface Policy extends PolicyDefinition {
  policyId: string;
  orgId: string;
  /** null: an organization-level policy. */
  storeId: string | null;
  version: number;
  isDefault: boolean;
}

export type PolicyEvent =
  | DomainEvent<'PolicyCreated', Policy & { createdAt: string }>
  | DomainEvent<'PolicyUpdated', { policyId: string; changes: Partial<PolicyDefinition>; version: number; updatedAt: string }>
  | DomainEvent<'PolicyDeleted', { policyId: string; deletedAt: string }>;

/** Every kind of policy event, once (the policy projection and the audit log read them all). */
export const policyEventTypes: Record<PolicyEvent['type'], true> = { PolicyCreated: true, PolicyUpdated: true, PolicyDeleted: true };

export type PolicyCommand =
  | {
      type: 'CreatePolicy';
      policyId: string;
      orgId: string;
      storeId: string | null;
      definition: PolicyDefinition;
      isDefault: boolean;
      at: Date;
    }
  | { type: 'UpdatePolicy'; orgId: string; changes: Partial<PolicyDefinition>; at: Date }
  | { type: 'DeletePolicy'; orgId: string; at: Date };

export interface PolicyState {
  policy?: Policy;
  deleted?: boolean;
}

/** What a policy decides with: changing any of these makes a new version (spec, Policy.version). */
export const VERSIONED_FIELDS = ['match', 'conditions', 'action', 'justificationTemplate', 'expiresDays'] as const satisfies readonly (keyof PolicyDefinition)[];

export const policyDecider: Decider<PolicyState, PolicyCommand, PolicyEvent> = {
  initialState: () => ({}),

  decide(command, state) {
    switch (command.type) {
      case 'CreatePolicy': {
        if (state.policy) throw new DomainError('conflict', 'Policy already exists');
        assertValidDefinition(command.definition);
        const { definition } = command;
        return [
          {
            type: 'PolicyCreated',
            data: {
              policyId: command.policyId,
              orgId: command.orgId,
              storeId: command.storeId,
              ...definition,
              name: definition.name.trim(),
              version: 1,
              isDefault: command.isDefault,
              createdAt: command.at.toISOString(),
            },
          },
        ];
      }
      case 'UpdatePolicy': {
        const policy = existing(state, command.orgId);
        const changes = changedFields(policy, command.changes);
        if (Object.keys(changes).length === 0) return [];
        assertValidDefinition({ ...policy, ...changes });
        const versioned = VERSIONED_FIELDS.some((field) => field in changes);
        const version = versioned ? policy.version + 1 : policy.version;
        return [{ type: 'PolicyUpdated', data: { policyId: policy.policyId, changes, version, updatedAt: command.at.toISOString() } }];
      }
      case 'DeletePolicy': {
        const policy = existing(state, command.orgId);
        return [{ type: 'PolicyDeleted', data: { policyId: policy.policyId, deletedAt: command.at.toISOString() } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'PolicyCreated': {
        const { createdAt: _createdAt, ...policy } = event.data;
        return { policy };
      }
      case 'PolicyUpdated':
        return { policy: { ...state.policy!, ...event.data.changes, version: event.data.version } };
      case 'PolicyDeleted':
        return { ...state, deleted: true };
    }
  },
};

/** Another organization's policy, or a deleted one, does not exist as far as the caller can tell. */
function existing(state: PolicyState, orgId: string): Policy {
  if (!state.policy || state.deleted || state.policy.orgId !== orgId) throw new DomainError('not_found', 'Policy not found');
  return state.policy;
}

function changedFields(policy: Policy, wanted: Partial<PolicyDefinition>): Partial<PolicyDefinition> {
  const changes: Partial<PolicyDefinition> = {};
  for (const [key, value] of Object.entries(wanted) as [keyof PolicyDefinition, never][]) {
    if (value !== undefined && !sameJson(value, policy[key])) changes[key] = value; // key order is no change
  }
  return changes;
}

function assertValidDefinition(definition: PolicyDefinition): void {
  const details: ErrorDetail[] = [];
  const problem = (field: string, message: string) => details.push({ field, message });
  const name = definition.name.trim();
  if (name.length === 0 || name.length > POLICY_NAME_MAX) problem('name', `name must be 1 to ${POLICY_NAME_MAX} characters`);
  if (definition.description !== null && definition.description.length > POLICY_DESCRIPTION_MAX) {
    problem('description', `description must be at most ${POLICY_DESCRIPTION_MAX} characters`);
  }
  if (!(POLICY_MODES as readonly string[]).includes(definition.mode)) problem('mode', `mode must be one of ${POLICY_MODES.join(', ')}`);
  if (!(POLICY_ACTIONS as readonly string[]).includes(definition.action)) {
    problem('action', `action must be one of ${POLICY_ACTIONS.join(', ')}`);
  }
  if (!Number.isSafeInteger(definition.priority)) problem('priority', 'priority must be an integer');
  if (definition.justificationTemplate !== null && definition.justificationTemplate.length > JUSTIFICATION_TEMPLATE_MAX) {
    problem('justification_template', `justification_template must be at most ${JUSTIFICATION_TEMPLATE_MAX} characters`);
  }
  if (definition.expiresDays !== null && !(Number.isSafeInteger(definition.expiresDays) && definition.expiresDays > 0)) {
    problem('expires_days', 'expires_days must be a positive integer or null');
  }
  for (const key of unknownKeys(definition.match, POLICY_MATCH_KEYS)) problem(`match.${key}`, `match.${key} is not a known match key`);
  for (const key of unknownKeys(definition.conditions, POLICY_CONDITION_KEYS)) {
    problem(`conditions.${key}`, `conditions.${key} is not a known condition`);
  }
  details.push(...matchProblems(definition.match), ...conditionProblems(definition.conditions));
  if (details.length) throw validationError(details);
}

/**
 * The API's body rules for a match, checked here too: the gateway is not the only sender (the dashboard sends the
 * command itself), and a policy the API would refuse must not be stored through another door.
 */
function matchProblems(match: PolicyMatch): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  if (match.origin !== undefined && !(POLICY_MATCH_ORIGINS as readonly unknown[]).includes(match.origin)) {
    details.push(refusalDetail(POLICY_TERMS_REFUSALS, 'match.origin', 'one_of'));
  }
  for (const [key, rule] of Object.entries(POLICY_MATCH_ITEMS)) {
    const items: unknown = match[key as keyof typeof POLICY_MATCH_ITEMS];
    if (items === undefined) continue;
    const refused = (reason: string) => details.push(refusalDetail(POLICY_TERMS_REFUSALS, `match.${key}`, reason));
    if (!Array.isArray(items) || items.length === 0 || items.length > POLICY_MATCH_LIST_MAX) refused('list_size');
    else if (!items.every((item) => typeof item === 'string' && item.length > 0 && item.length <= rule.max)) refused('item_length');
    else if ('form' in rule && !items.every((item: string) => rule.form.pattern.test(item))) refused(rule.form.reason);
  }
  return details;
}

/** The conditions' values as the API's body rules have them (an unknown condition is said apart). */
function conditionProblems(conditions: PolicyConditions): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const [key, value] of Object.entries(conditions) as [keyof PolicyConditions, unknown][]) {
    const range = POLICY_NUMBER_CONDITIONS[key];
    const refused = () => details.push({ field: `conditions.${key}`, message: policyConditionRefusal(key).message });
    if (range && !(typeof value === 'number' && Number.isFinite(value) && value >= range.min && value <= range.max)) refused();
    else if (!range && POLICY_CONDITION_KEYS.includes(key) && typeof value !== 'boolean') refused();
  }
  return details;
}

const unknownKeys = (object: object, known: readonly string[]): string[] => Object.keys(object).filter((key) => !known.includes(key));

export const policyStream = (policyId: string): string => `policy-${policyId}`;
