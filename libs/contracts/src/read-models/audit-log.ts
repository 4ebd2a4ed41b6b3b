/**
 * Read model `audit_log`: every change to an organization's configuration, with who made it. Each service that
 * owns changes keeps its part in a collection of its own (`audit_log_<owner>`), built from its own events (where
 * the actor is recorded); the dashboard reads all parts as one log. One collection per owner, not one shared:
 * a projection owns its collections, and a rebuild swaps them whole.
 */
export const AUDIT_LOG_OWNERS = ['inventory', 'alerts', 'notifier', 'reports', 'dashboard'] as const;
export type AuditLogOwner = (typeof AUDIT_LOG_OWNERS)[number];

export const auditLogCollection = (owner: AuditLogOwner): string => `audit_log_${owner}`;
/** What a part remembers of each target (its latest label), for the events that name a target by id only. */
export const auditTargetsCollection = (owner: AuditLogOwner): string => `audit_targets_${owner}`;

export type AuditTargetType = 'token' | 'store' | 'script' | 'policy' | 'rule' | 'alert' | 'channel' | 'schedule' | 'organization' | 'member';

export interface AuditTarget {
  type: AuditTargetType;
  id: string;
  /** What people call it (a token's name, a store's domain, a script's URL), as it was then; null when unknown. */
  label: string | null;
}

export type AuditDetail = string | number | boolean | null | string[];
export type AuditDetails = Record<string, AuditDetail>;

export interface AuditEntryDocument {
  /** The event's id: one entry per change. */
  _id: string;
  org_id: string;
  /** ISO 8601 UTC, when the change was recorded. */
  time: string;
  /** `user:<e-mail>`, `api:<token prefix>`, `admin-cli` or `system`. */
  actor: string;
  /** Stable dotted name, `<target type>.<past participle>`: `token.revoked`, `script.authorized`. */
  action: string;
  target: AuditTarget;
  /** What the change was about: the justification of a script decision, the fields a change touched. */
  details: AuditDetails;
}
