import type { PolicyAction, PolicyConditions, PolicyMatch, PolicyMode } from '../read-models/policy';
import type { ScriptDocument } from '../read-models/script';

export const POLICY_COMMANDS = {
  policyCreate: 'inventory.policy.create',
  policyUpdate: 'inventory.policy.update',
  policyDelete: 'inventory.policy.delete',
  policySimulate: 'inventory.policy.simulate',
  policyApply: 'inventory.policy.apply',
} as const;

/** A policy as the API and the dashboard write it (policyCreate, policyUpdate): the spec's field names, each optional on an update. */
export interface PolicyInput {
  store_id?: string | null;
  name?: string;
  description?: string | null;
  active?: boolean;
  mode?: PolicyMode;
  priority?: number;
  match?: PolicyMatch;
  conditions?: PolicyConditions;
  action?: PolicyAction;
  justification_template?: string | null;
  expires_days?: number | null;
}

/** A script as a policy run lists it (the spec's simulate item). */
export type PolicyRunItem = Pick<ScriptDocument, 'src' | 'type' | 'category' | 'status'> & { id: string };

/** policySimulate's answer: what Apply would do to the store's current scripts. */
export interface PolicySimulation {
  policy_id: string;
  store_id: string;
  would_authorize: PolicyRunItem[];
  would_block: PolicyRunItem[];
  would_review: PolicyRunItem[];
  unchanged: number;
}

/** policyApply's answer: how many of the store's scripts each outcome had. */
export interface PolicyApplication {
  policy_id: string;
  store_id: string;
  authorized: number;
  blocked: number;
  needs_review: number;
  unchanged: number;
}
