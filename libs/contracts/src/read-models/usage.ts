import { PLANS, type BillingMode, type Plan } from '../plans';

/**
 * Read model `usage_counters` (owner: inventory's SDK ingestion; reader: GET /organizations/{id}/usage): SDK
 * events per organization and calendar month (UTC). A month without events has no document: the count is 0.
 */
export const USAGE_COUNTERS = 'usage_counters';

export interface UsageCounterDocument {
  /** `<org_id>:<YYYY-MM>`, see `usageCounterId`. */
  _id: string;
  org_id: string;
  /** `YYYY-MM`, UTC. */
  month: string;
  /** SDK events received in that month. */
  events: number;
}

/** The calendar month (UTC) of an instant, as `YYYY-MM`. */
export const usageMonth = (at: Date): string => at.toISOString().slice(0, 7);

export const usageCounterId = (orgId: string, month: string): string => `${orgId}:${month}`;

/**
 * Active stores an organization may have: null when unlimited, which partner-billed organizations always are
 * (DESIGN.md section 6, the spec's plan_limit rule).
 */
export function storesAllowed(plan: Plan, billingMode: BillingMode): number | null {
  const limit = PLANS[plan].stores;
  return billingMode === 'partner' || !Number.isFinite(limit) ? null : limit;
}
