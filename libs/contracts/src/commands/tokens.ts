import type { TokenListItem } from '../read-models/api-token';

export const TOKEN_COMMANDS = {
  tokenRecordUse: 'inventory.token.record-use',
  tokenIssue: 'inventory.token.issue',
  tokenRevoke: 'inventory.token.revoke',
} as const;

/** Spec, Authentication 5 and Limits. */
export const TOKEN_NAME_MAX = 80;
export const TOKEN_VALIDITY_DAYS = [30, 90, 365] as const;
/** The dashboard's shortcut: in `scopes`, it stands for READ_ONLY_SCOPES. */
export const READ_ONLY_SHORTCUT = 'read-only';

/**
 * `inventory.token.issue`, sent by the dashboard for the organization owner (the role check is the sender's);
 * the actor rides in the command metadata (`Bus.request(…, { actor: 'user:<e-mail>' })`).
 */
export interface IssueTokenRequest {
  orgId: string;
  name: string;
  /** At least one; `read-only` may stand among them. Fixed for the token's life. */
  scopes: string[];
  /** null: no expiry; otherwise one of TOKEN_VALIDITY_DAYS. */
  validityDays: number | null;
}

/**
 * The reply: the token itself is here and nowhere else, ever (only its hash is stored). `null` in the reply to a
 * redelivery of the same command: it answers the token the first delivery issued, whose secret only that delivery
 * knew (the first delivery's reply, when it arrives, is the one with the token).
 */
export type IssuedToken = TokenListItem & { token: string | null };

/** `inventory.token.revoke`: immediate; the reply comes once the gateway's read model refuses the token. */
export interface RevokeTokenRequest {
  orgId: string;
  prefix: string;
}
