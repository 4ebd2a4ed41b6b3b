import { DomainError, validationError, type Decider, type DomainEvent, type ErrorDetail } from '@pss/kernel';
import {
  BILLING_MODES,
  ORGANIZATION_NAME_MAX,
  ORGANIZATION_NAME_MIN,
  PLAN_NAMES,
  type BillingMode,
  type OwnerInviteOutcome,
  type Plan,
} from '@pss/contracts';
import { looksLikeLink, ORGANIZATION_NAME_LINK_MESSAGE } from './organization-name';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface OrganizationProfile {
  orgId: string;
  name: string;
  plan: Plan;
  billingMode: BillingMode;
  parentOrgId: string | null;
  ownerEmail: string | null;
}

export type OrganizationEvent =
  | DomainEvent<'OrganizationCreated', OrganizationProfile & { createdAt: string }>
  | DomainEvent<'OwnerInvitationRecorded', { orgId: string; outcome: OwnerInviteOutcome; at: string }>
  /** A dashboard invitation for the owner (issue 31): its token's hash only; it replaces any earlier one. */
  | DomainEvent<'OwnerInvitationIssued', { orgId: string; tokenHash: string; expiresAt: string; at: string }>;

export type OrganizationCommand =
  | {
      type: 'CreateOrganization';
      name: string;
      plan: string;
      billingMode: string;
      orgId: string;
      ownerEmail: string | null;
      /** The parent as it is now, when the organization is created by a partner. */
      parent: { orgId: string; parentOrgId: string | null } | null;
      at: Date;
    }
  | { type: 'RecordOwnerInvitation'; outcome: OwnerInviteOutcome; at: Date }
  | { type: 'IssueOwnerInvitation'; tokenHash: string; expiresAt: string; at: Date };

export interface OrganizationState {
  profile?: OrganizationProfile;
  ownerInvitation?: OwnerInviteOutcome;
}

type Create = Extract<OrganizationCommand, { type: 'CreateOrganization' }>;
type RecordInvitation = Extract<OrganizationCommand, { type: 'RecordOwnerInvitation' }>;

export const organizationDecider: Decider<OrganizationState, OrganizationCommand, OrganizationEvent> = {
  initialState: () => ({}),

  decide(command, state) {
    switch (command.type) {
      case 'CreateOrganization':
        return create(command, state);
      case 'RecordOwnerInvitation':
        return recordOwnerInvitation(command, state);
      case 'IssueOwnerInvitation':
        return issueOwnerInvitation(command, state);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'OrganizationCreated': {
        const { createdAt: _createdAt, ...profile } = event.data;
        return { ...state, profile };
      }
      case 'OwnerInvitationRecorded':
        return { ...state, ownerInvitation: event.data.outcome };
      case 'OwnerInvitationIssued':
        return state;
    }
  },
};

function create(command: Create, state: OrganizationState): OrganizationEvent[] {
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
        ownerEmail: command.ownerEmail === null ? null : normalizeEmail(command.ownerEmail),
        createdAt: command.at.toISOString(),
      },
    },
  ];
}

/** The audit trail of the owner's invitation: recorded once per organization, as it turned out. */
function recordOwnerInvitation(command: RecordInvitation, state: OrganizationState): OrganizationEvent[] {
  if (!state.profile) throw new DomainError('not_found', 'Organization not found');
  if (state.ownerInvitation) return [];
  // Skipped means "nobody to invite" and nothing else, so the record can be trusted when audited.
  if ((command.outcome === 'skipped') !== (state.profile.ownerEmail === null)) {
    const ownerEmail = state.profile.ownerEmail ? 'set' : 'missing';
    throw new DomainError('conflict', `An owner invitation cannot be ${command.outcome} when the owner e-mail is ${ownerEmail}`);
  }
  const { orgId } = state.profile;
  return [{ type: 'OwnerInvitationRecorded', data: { orgId, outcome: command.outcome, at: command.at.toISOString() } }];
}

/** Only an organization with an owner to invite has an invitation to issue. */
function issueOwnerInvitation(command: Extract<OrganizationCommand, { type: 'IssueOwnerInvitation' }>, state: OrganizationState): OrganizationEvent[] {
  if (!state.profile) throw new DomainError('not_found', 'Organization not found');
  if (!state.profile.ownerEmail) throw new DomainError('conflict', 'The organization has no owner e-mail to invite');
  const { orgId } = state.profile;
  return [{ type: 'OwnerInvitationIssued', data: { orgId, tokenHash: command.tokenHash, expiresAt: command.expiresAt, at: command.at.toISOString() } }];
}

function assertValidProfile(command: Create): void {
  const details: ErrorDetail[] = [];
  const name = command.name.trim();
  if (name.length < ORGANIZATION_NAME_MIN || name.length > ORGANIZATION_NAME_MAX) {
    details.push({ field: 'name', message: `name must be ${ORGANIZATION_NAME_MIN} to ${ORGANIZATION_NAME_MAX} characters` });
  } else if (looksLikeLink(name)) {
    details.push({ field: 'name', message: ORGANIZATION_NAME_LINK_MESSAGE });
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

/** E-mail addresses are compared case-insensitively: the form in which they are recorded and looked up. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

export const organizationStream = (orgId: string): string => `org-${orgId}`;
