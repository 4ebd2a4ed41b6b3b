import type { ApiTokenDocument, ApiTokenStatus } from '@pss/contracts';

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
