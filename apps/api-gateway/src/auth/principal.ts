import type { Scope } from '@pss/contracts';

/** Who is calling: an organization's API token. Tokens belong to organizations, not users or stores. */
export interface Principal {
  tokenId: string;
  /** The organization the token belongs to. */
  orgId: string;
  /**
   * The organization this request acts on: the token's own, or a child named with `org_id` (partners with
   * orgs:manage only). Every query and command of the request is scoped to it.
   */
  actingOrgId: string;
  prefix: string;
  scopes: readonly Scope[];
  /** Audit label: `api:<token prefix>`. */
  actor: string;
}

export const PRINCIPAL = Symbol('principal');

export interface AuthenticatedRequest {
  [PRINCIPAL]?: Principal;
}
