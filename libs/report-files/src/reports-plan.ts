import { ORGANIZATIONS, PLANS, type OrganizationDocument } from '@pss/contracts';
import { DomainError } from '@pss/kernel';
import type { ReadStore } from '@pss/read-store';

/**
 * The plan rule of compliance reports (spec), once for both services that apply it: the gateway refuses an
 * on-demand report or a schedule with it, the reports service's scheduled job skips the schedules of an
 * organization whose plan lost reports since. Partner-billed organizations are exempt.
 */
export function reportsPlanRefusal(organization: Pick<OrganizationDocument, 'plan' | 'billing_mode'> | null): DomainError | undefined {
  if (!organization || organization.billing_mode === 'partner' || PLANS[organization.plan]?.complianceReports === true) return undefined;
  return new DomainError('plan_limit', `The ${organization.plan} plan does not include compliance reports`);
}

/** The refusal for an organization as the read model has it; one it does not have yet (projection lag) is not refused. */
export async function organizationReportsRefusal(readStore: ReadStore, orgId: string): Promise<DomainError | undefined> {
  return reportsPlanRefusal(await readStore.collection<OrganizationDocument>(ORGANIZATIONS).findOne({ _id: orgId }));
}
