import { DomainError, validationError, type Decider, type DomainEvent, type ErrorDetail } from '@pss/kernel';
import {
  POLICY_ACTIONS,
  POLICY_CONDITION_KEYS,
  POLICY_MATCH_KEYS,
  POLICY_MODES,
  type PolicyAction,
  type PolicyConditions,
  type PolicyMatch,
  type PolicyMode,
} from '@pss/contracts';

export const POLICY_NAME_MAX = 120;
export const POLICY_DESCRIPTION_MAX = 1000;
/** A template expands into a justification, and justifications are capped at 2000 characters (spec, Limits). */
export const JUSTIFICATION_TEMPLATE_MAX = 2000;

/** What a policy says. Changing match, conditions, action, justificationTemplate or expiresDays is a new version. */
export interface PolicyDefinition {
  name: string;
  description: string | null;
  active: boolean;
  mode: PolicyMode;
  priority: number;
  match: PolicyMatch;
  conditions: PolicyConditions;
  action: PolicyAction;
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

export type PolicyEvent = DomainEvent<'PolicyCreated', Policy & { createdAt: string }>;

export type PolicyCommand = {
  type: 'CreatePolicy';
  policyId: string;
  orgId: string;
  storeId: string | null;
  definition: PolicyDefinition;
  isDefault: boolean;
  at: Date;
};

export interface PolicyState {
  policy?: Policy;
}

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
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'PolicyCreated': {
        const { createdAt: _createdAt, ...policy } = event.data;
        return { ...state, policy };
      }
    }
  },
};

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
  if (details.length) throw validationError(details);
}

const unknownKeys = (object: object, known: readonly string[]): string[] => Object.keys(object).filter((key) => !known.includes(key));

export const policyStream = (policyId: string): string => `policy-${policyId}`;
