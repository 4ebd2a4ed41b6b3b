/** Read model `api_tokens` (owner: inventory; reader: api-gateway for authentication, admin CLI for listing). */
export const API_TOKENS = 'api_tokens';

export interface ApiTokenDocument {
  _id: string;
  org_id: string;
  name: string;
  /** The first 32 characters of the token: shown in lists and audit labels (`api:<prefix>`). */
  prefix: string;
  /** SHA-256 (hex) of the whole token; the token itself is never stored. */
  hash: string;
  scopes: string[];
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

export type ApiTokenStatus = 'Active' | 'Expired' | 'Revoked';

export function tokenStatus(token: Pick<ApiTokenDocument, 'revoked_at' | 'expires_at'>, now: Date): ApiTokenStatus {
  if (token.revoked_at) return 'Revoked';
  if (token.expires_at && Date.parse(token.expires_at) <= now.getTime()) return 'Expired';
  return 'Active';
}

/** What the dashboard (and the admin CLI) lists of a token: never its hash, never the token. */
export interface TokenListItem {
  id: string;
  org_id: string;
  name: string;
  prefix: string;
  scopes: string[];
  status: ApiTokenStatus;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

export const tokenListItem = (doc: ApiTokenDocument, status: ApiTokenStatus): TokenListItem => ({
  id: doc._id,
  org_id: doc.org_id,
  name: doc.name,
  prefix: doc.prefix,
  scopes: doc.scopes,
  status,
  created_at: doc.created_at,
  expires_at: doc.expires_at,
  revoked_at: doc.revoked_at,
  last_used_at: doc.last_used_at,
});
