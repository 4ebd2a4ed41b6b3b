import { DomainError, notFound, validationError, type Decider } from '@pss/kernel';
import type { RuleTarget, RuleType } from '@pss/contracts';
import { ruleId, ruleKey } from './rule-key';
import type { RuleEvent } from './rule.events';

export const RULE_LABEL_MAX = 200;

/** A rule as a client asks for it: value as typed, label optional. */
export interface RuleRequest {
  orgId: string;
  storeId: string;
  type: string;
  target: string;
  value: string;
  label?: string;
}

export type RuleCommand =
  /** POST /rules: a rule that exists already is a conflict. */
  | { type: 'CreateRule'; rule: RuleRequest; at: Date }
  /** Blocking a script: the rule is created, or the existing one re-activated (and relabelled when a label is given). */
  | { type: 'EnsureRule'; rule: RuleRequest; at: Date }
  /** Authorizing or blocking a script: a rule in the decision's way stops acting; nothing when there is none. */
  | { type: 'LiftRule'; orgId: string; at: Date }
  | { type: 'UpdateRule'; orgId: string; label?: string; active?: boolean; at: Date }
  | { type: 'DeleteRule'; orgId: string; at: Date };

export interface Rule {
  ruleId: string;
  orgId: string;
  storeId: string;
  type: RuleType;
  target: RuleTarget;
  value: string;
  label: string;
  active: boolean;
}

/** No rule: never created, or deleted (the stream stays, so the same key can create it again). */
export interface RuleState {
  rule?: Rule;
}

export const ruleDecider: Decider<RuleState, RuleCommand, RuleEvent> = {
  initialState: () => ({}),

  decide(command, state) {
    switch (command.type) {
      case 'CreateRule':
        if (state.rule) {
          const { type, target, value } = state.rule;
          throw new DomainError('conflict', `${type === 'allow' ? 'An' : 'A'} ${type} rule for ${target} ${value} already exists for this store`);
        }
        return [created(command.rule, command.at)];
      case 'EnsureRule':
        if (!state.rule) return [created(command.rule, command.at)];
        return changed(owned(state, command.rule.orgId), { label: command.rule.label, active: true }, command.at);
      case 'LiftRule':
        return state.rule ? changed(owned(state, command.orgId), { active: false }, command.at) : [];
      case 'UpdateRule':
        return changed(owned(state, command.orgId), command, command.at);
      case 'DeleteRule': {
        const { ruleId, storeId } = owned(state, command.orgId);
        return [{ type: 'RuleDeleted', data: { ruleId, storeId, deletedAt: command.at.toISOString() } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'RuleCreated': {
        const { createdAt: _createdAt, ...rule } = event.data;
        return { rule: { ...rule, active: true } };
      }
      case 'RuleUpdated': {
        const { label, active } = event.data;
        return { rule: { ...state.rule!, ...(label !== undefined ? { label } : {}), ...(active !== undefined ? { active } : {}) } };
      }
      case 'RuleDeleted':
        return {};
    }
  },
};

function created(request: RuleRequest, at: Date): RuleEvent {
  const key = ruleKey(request);
  const label = request.label === undefined || request.label.trim() === '' ? defaultLabel(key.type, key.value) : validLabel(request.label);
  return { type: 'RuleCreated', data: { ruleId: ruleId(key), orgId: request.orgId, ...key, label, createdAt: at.toISOString() } };
}

/** Records only what changes; nothing at all when nothing does. */
function changed(rule: Rule, wanted: { label?: string; active?: boolean }, at: Date): RuleEvent[] {
  const label = wanted.label === undefined ? undefined : validLabel(wanted.label);
  const changes = {
    ...(label !== undefined && label !== rule.label ? { label } : {}),
    ...(wanted.active !== undefined && wanted.active !== rule.active ? { active: wanted.active } : {}),
  };
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'RuleUpdated', data: { ruleId: rule.ruleId, storeId: rule.storeId, ...changes, updatedAt: at.toISOString() } }];
}

/** Another organization's rule does not exist, as far as the caller can tell. */
function owned(state: RuleState, orgId: string): Rule {
  if (!state.rule || state.rule.orgId !== orgId) throw notFound('Rule');
  return state.rule;
}

function validLabel(label: string): string {
  const trimmed = label.trim();
  if (trimmed.length === 0 || trimmed.length > RULE_LABEL_MAX) {
    throw validationError([{ field: 'label', message: `label must be 1 to ${RULE_LABEL_MAX} characters` }]);
  }
  return trimmed;
}

/** `Block cdn.example.com`; a long URL is cut to fit the label's limit. */
function defaultLabel(type: RuleType, value: string): string {
  const label = `${type === 'block' ? 'Block' : 'Allow'} ${value}`;
  return label.length <= RULE_LABEL_MAX ? label : `${label.slice(0, RULE_LABEL_MAX - 1)}…`;
}
