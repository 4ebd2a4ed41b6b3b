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
  partner_settings: Record<string, unknown>;
  created_at: string;
}
