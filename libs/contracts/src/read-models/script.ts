/** Read model `scripts` (owner: inventory; readers: api-gateway, reports, usage). Field names are the API's. */
export const SCRIPTS = 'scripts';

export const SCRIPT_STATUSES = ['trusted', 'needs_review', 'suspicious', 'malicious', 'authorized', 'blocked'] as const;
export type ScriptStatus = (typeof SCRIPT_STATUSES)[number];
export const SCRIPT_TYPES = ['first_party', 'known_third', 'unknown'] as const;
export type ScriptType = (typeof SCRIPT_TYPES)[number];
export const INTEGRITY_STATUSES = ['match', 'mismatch', 'pending', 'monitored', 'blocked'] as const;
export type IntegrityStatus = (typeof INTEGRITY_STATUSES)[number];
/**
 * pending until a hash is known, monitored while not authorized, match/mismatch once authorized, blocked. A
 * script the browser refuses for its `integrity` attribute is a mismatch whatever its status: what is served is
 * not what the page pins.
 */
export function integrityOf(status: ScriptStatus, currentHash: string | null, authorizedHash: string | null, sriRefused = false): IntegrityStatus {
  if (status === 'blocked') return 'blocked';
  if (currentHash === null) return 'pending';
  if (sriRefused) return 'mismatch';
  if (status !== 'authorized') return 'monitored';
  return authorizedHash === null || currentHash === authorizedHash ? 'match' : 'mismatch';
}

export const AUTHORIZATION_METHODS = ['manual', 'auto', 'policy', 'ai_assisted', 'import', 'api', 'expiry', 'integrity', 'system'] as const;
export type AuthorizationMethod = (typeof AUTHORIZATION_METHODS)[number];

/**
 * The methods of a person's decision, which policies never overturn: `api` (a client of the API) and `manual` (by
 * hand in the dashboard). Whoever sends a script's authorize or block command states which; unstated, `api`.
 */
export const HAND_DECISIONS = ['api', 'manual'] as const satisfies readonly AuthorizationMethod[];
export type HandDecisionMethod = (typeof HAND_DECISIONS)[number];

export interface ScriptReview {
  action: 'authorize' | 'block' | 'needs_review';
  method: AuthorizationMethod;
  by: string;
  justification: string | null;
  at: string;
}

export interface ScriptDocument {
  _id: string;
  org_id: string;
  store_id: string;
  src: string;
  type: ScriptType | null;
  category: string | null;
  status: ScriptStatus;
  integrity_status: IntegrityStatus | null;
  current_hash: string | null;
  authorized_hash: string | null;
  sri_hash: string | null;
  hash_source: string | null;
  integrity_attr: boolean | null;
  size_bytes: number | null;
  vendor_id: string | null;
  gtm_container: string | null;
  authorization_method: AuthorizationMethod | null;
  authorized_by: string | null;
  justification: string | null;
  policy_id: string | null;
  policy_version: number | null;
  /**
   * Added (issue 29): the prevalence the deciding policy's `prevalence_min` was checked against (0..1,
   * docs/policies.md); null when the last decision was not a policy's with that condition. Absent from documents
   * written before.
   */
  prevalence_seen?: number | null;
  reviewed_at: string | null;
  expires_at: string | null;
  review_due_at: string | null;
  first_seen_at: string;
  last_seen_at: string;
  last_verified_at: string | null;
  last_hash_change_at: string | null;
  /** Added to the spec's fields: how often and in how many sessions the SDK reported it. */
  sightings: number;
  sessions_count: number;
  /** Added: the host of an external script (null for inline), for rules and policies. */
  host: string | null;
  inline: boolean;
  /** Added: who decided what and when (GET /scripts/{id}). */
  reviews: ScriptReview[];
  /** Added: what a `recommend` policy would decide, until someone decides. */
  recommendation: ScriptRecommendationView | null;
  /** Added: the sensitive fields of the page this script touched. */
  sensitive_fields_accessed: string[];
  /**
   * Added (issue 34): the browser refuses to run the script, its content not being what the page's `integrity`
   * pins (`sri_hash` then holds the pinned hash, `current_hash` the served one), and since when. Absent from
   * documents written before.
   */
  sri_refused?: boolean;
  sri_refused_at?: string | null;
}

export interface ScriptRecommendationView {
  policy_id: string;
  policy_version: number;
  action: 'authorize' | 'needs_review' | 'block';
  justification: string;
  /** Added (issue 29), as on the script; absent from recommendations made before. */
  prevalence_seen?: number | null;
  at: string;
}

/** Read model `host_prevalence` (owner: inventory): which stores' inventories have a script from a host. */
export const HOST_PREVALENCE = 'host_prevalence';

export interface HostPrevalenceDocument {
  /** The host. */
  _id: string;
  store_ids: string[];
}

/** The history beside each script (issue 32), exported with it. */
export * from './script-history';
