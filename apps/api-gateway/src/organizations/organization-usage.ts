import { Inject, Injectable } from '@nestjs/common';
import {
  ORGANIZATIONS,
  SCRIPTS,
  STORES,
  storesAllowed,
  USAGE_COUNTERS,
  usageCounterId,
  usageMonth,
  type BillingMode,
  type OrganizationDocument,
  type Plan,
  type UsageCounterDocument,
} from '@pss/contracts';
import { CLOCK, notFound, type Clock } from '@pss/kernel';
import { READ_STORE, type ReadStore } from '@pss/read-store';

/** GET /organizations/{id}/usage (documented in docs/decisions.md). */
export interface OrganizationUsage {
  org_id: string;
  plan: Plan;
  billing_mode: BillingMode;
  /** The current calendar month in UTC, `start` included, `end` (the next month's start) excluded. */
  period: { start: string; end: string };
  /** Active stores, and how many the plan allows (null: unlimited, or partner-billed). */
  stores: { used: number; allowed: number | null };
  scripts: { total: number };
  /** SDK events received in the period. */
  events: { this_month: number };
}

/** What an organization uses against its plan, counted from the read models. */
@Injectable()
export class OrganizationUsageReader {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Visible to the acting organization for itself and its children; anything else is 404, existing or not. */
  async usage(orgId: string, actingOrgId: string): Promise<OrganizationUsage> {
    const organization = await this.readStore.collection<OrganizationDocument>(ORGANIZATIONS).findOne({ _id: orgId });
    if (!organization || (organization._id !== actingOrgId && organization.parent_org_id !== actingOrgId)) {
      throw notFound('Organization');
    }
    const now = this.clock.now();
    const [storesUsed, scriptsTotal, counter] = await Promise.all([
      this.readStore.collection(STORES).count({ org_id: orgId, status: 'active' }),
      this.readStore.collection(SCRIPTS).count({ org_id: orgId }),
      this.readStore.collection<UsageCounterDocument>(USAGE_COUNTERS).findOne({ _id: usageCounterId(orgId, usageMonth(now)) }),
    ]);
    return {
      org_id: orgId,
      plan: organization.plan,
      billing_mode: organization.billing_mode,
      period: calendarMonth(now),
      stores: { used: storesUsed, allowed: storesAllowed(organization.plan, organization.billing_mode) },
      scripts: { total: scriptsTotal },
      events: { this_month: counter?.events ?? 0 },
    };
  }
}

function calendarMonth(at: Date): { start: string; end: string } {
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth();
  return { start: new Date(Date.UTC(year, month, 1)).toISOString(), end: new Date(Date.UTC(year, month + 1, 1)).toISOString() };
}
