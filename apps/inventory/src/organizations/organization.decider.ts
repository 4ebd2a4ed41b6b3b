import { DomainError, validationError, type Decider, type DomainEvent, type ErrorDetail } from '@pss/kernel';
import { BILLING_MODES, PLAN_NAMES, type BillingMode, type Plan } from '@pss/contracts';

export const ORGANIZATION_NAME_MIN = 2;
export const ORGANIZATION_NAME_MAX = 120;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface OrganizationProfile {
  orgId: string;
  name: string;
  plan: Plan;
  billingMode: BillingMode;
  parentOrgId: string | null;
  ownerEmail: string | null;
}

export type OrganizationEvent = DomainEvent<'OrganizationCreated', OrganizationProfile & { createdAt: string }>;

export type OrganizationCommand = {
  type: 'CreateOrganization';
  name: string;
  plan: string;
  billingMode: string;
  orgId: string;
  ownerEmail: string | null;
  /** The parent as it is now, when the organization is created by a partner. */
  parent: { orgId: string; parentOrgId: string | null } | null;
  at: Date;
};

export interface OrganizationState {
  profile?: OrganizationProfile;
}

export const organizationDecider: Decider<OrganizationState, OrganizationCommand, OrganizationEvent> = {
  initialState: () => ({}),

  decide(command, state) {
    if (state.profile) throw new DomainError('conflict', 'Organization already exists');
    // One level of nesting: a child organization cannot have children of its own.
    if (command.parent?.parentOrgId) {
      throw new DomainError('nesting_limit', 'Child organizations cannot create organizations: only one level of nesting is allowed');
    }
    assertValidProfile(command);
    return [
      {
        type: 'OrganizationCreated',
        data: {
          orgId: command.orgId,
          name: command.name.trim(),
          plan: command.plan as Plan,
          billingMode: command.billingMode as BillingMode,
          parentOrgId: command.parent?.orgId ?? null,
          ownerEmail: command.ownerEmail?.trim().toLowerCase() ?? null,
          createdAt: command.at.toISOString(),
        },
      },
    ];
  },

  evolve(_state, event) {
    const { createdAt: _createdAt, ...profile } = event.data;
    return { profile };
  },
};

function assertValidProfile(command: OrganizationCommand): void {
  const details: ErrorDetail[] = [];
  const name = command.name.trim();
  if (name.length < ORGANIZATION_NAME_MIN || name.length > ORGANIZATION_NAME_MAX) {
    details.push({ field: 'name', message: `name must be ${ORGANIZATION_NAME_MIN} to ${ORGANIZATION_NAME_MAX} characters` });
  }
  if (!(PLAN_NAMES as string[]).includes(command.plan)) {
    details.push({ field: 'plan', message: `plan must be one of ${PLAN_NAMES.join(', ')}` });
  }
  if (!(BILLING_MODES as readonly string[]).includes(command.billingMode)) {
    details.push({ field: 'billing_mode', message: `billing_mode must be one of ${BILLING_MODES.join(', ')}` });
  }
  if (command.ownerEmail !== null && !EMAIL_PATTERN.test(command.ownerEmail.trim())) {
    details.push({ field: 'owner_email', message: 'owner_email must be an e-mail address' });
  }
  if (details.length) throw validationError(details);
}

export const organizationStream = (orgId: string): string => `org-${orgId}`;
