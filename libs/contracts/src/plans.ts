/** Plans and what they include (DESIGN.md section 6). Partner-billed organizations skip both checks. */
export const PLANS = {
  essential: { stores: 1, complianceReports: false },
  standard: { stores: 3, complianceReports: true },
  growth: { stores: 10, complianceReports: true },
  pro: { stores: 50, complianceReports: true },
  enterprise: { stores: Number.POSITIVE_INFINITY, complianceReports: true },
} as const;

export type Plan = keyof typeof PLANS;
export const PLAN_NAMES = Object.keys(PLANS) as Plan[];
export const BILLING_MODES = ['partner', 'processor'] as const;
export type BillingMode = (typeof BILLING_MODES)[number];
