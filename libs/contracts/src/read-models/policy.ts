/**
 * Read model `policies` (owner: inventory; readers: api-gateway, script evaluation). A document is the spec's
 * Policy resource minus bookkeeping: field names are the API's.
 */
export const POLICIES = 'policies';

export const POLICY_MODES = ['recommend', 'auto'] as const;
export type PolicyMode = (typeof POLICY_MODES)[number];

export const POLICY_ACTIONS = ['authorize', 'needs_review', 'block'] as const;
export type PolicyAction = (typeof POLICY_ACTIONS)[number];

/** Which scripts a policy looks at (spec: match keys). An empty match matches every script. */
export interface PolicyMatch {
  origin?: string;
  domain?: string[];
  path_glob?: string[];
  category?: string[];
  vendor_id?: string[];
}

/** What must also hold of a matched script (spec: conditions keys). */
export interface PolicyConditions {
  same_origin?: boolean;
  prevalence_min?: number;
  no_sensitive_field_access?: boolean;
  not_in_threat_list?: boolean;
  in_threat_list?: boolean;
  store_provider?: boolean;
  max_size_kb?: number;
  has_integrity_attr?: boolean;
}

export const POLICY_MATCH_KEYS = ['origin', 'domain', 'path_glob', 'category', 'vendor_id'] as const satisfies readonly (keyof PolicyMatch)[];
export const POLICY_CONDITION_KEYS = [
  'same_origin',
  'prevalence_min',
  'no_sensitive_field_access',
  'not_in_threat_list',
  'in_threat_list',
  'store_provider',
  'max_size_kb',
  'has_integrity_attr',
] as const satisfies readonly (keyof PolicyConditions)[];

export const POLICY_MATCH_ORIGINS = ['first_party', 'third_party', 'inline', 'any'] as const;

/** A match list holds at most this many items: the API's body rule, which the policy commands check for every sender. */
export const POLICY_MATCH_LIST_MAX = 50;

/** Each match list's items: their longest, and the form they must have (with the refusal's reason and the API's words when they do not). */
export const POLICY_MATCH_ITEMS = {
  domain: { max: 253, form: { reason: 'host_name', pattern: /^(\*\.)?[a-z0-9.-]+$/i, message: 'match.domain items must be host names, optionally starting with *.' } },
  path_glob: { max: 500, form: { reason: 'path_start', pattern: /^\//, message: 'match.path_glob items must be path globs starting with /' } },
  category: { max: 64 },
  vendor_id: { max: 64 },
} as const satisfies Record<Exclude<keyof PolicyMatch, 'origin'>, { max: number; form?: { reason: string; pattern: RegExp; message: string } }>;

/** How a policy picks scripts and what it does with them: the decider's policies and the read model say it alike. */
export interface PolicyTerms {
  active: boolean;
  mode: PolicyMode;
  /** Lower is evaluated first; the first match decides. */
  priority: number;
  match: PolicyMatch;
  conditions: PolicyConditions;
  action: PolicyAction;
}

export interface PolicyDocument extends PolicyTerms {
  _id: string;
  org_id: string;
  /** null: an organization-level policy, applying to every store. */
  store_id: string | null;
  name: string;
  description: string | null;
  /** Incremented when match, conditions, action, justification_template or expires_days changes. */
  version: number;
  /** May contain `{domain}`, `{vendor}`, `{path}`. */
  justification_template: string | null;
  expires_days: number | null;
  /** Seeded for every new organization. */
  is_default: boolean;
  created_at: string;
  updated_at: string;
}
