import type { BillingMode, Plan } from '../plans';

/** Read model `organizations` (owner: inventory; readers: api-gateway, every service needing plan or parent). */
export const ORGANIZATIONS = 'organizations';

export interface OrganizationDocument {
  _id: string;
  name: string;
  plan: Plan;
  billing_mode: BillingMode;
  parent_org_id: string | null;
  owner_email: string | null;
  /**
   * The owner's latest dashboard invitation (its token's hash), absent until one is issued. Underscored so that
   * `toResource` leaves it out of every API answer: it is the dashboard's to check, nobody's to see.
   */
  _owner_invitation?: { token_hash: string; expires_at: string } | null;
  partner_settings: Record<string, unknown>;
  created_at: string;
}
