import type { OrganizationDocument } from '../read-models/organization';
import type { toResource } from '../resource';

export const ORGANIZATION_COMMANDS = {
  organizationCreate: 'inventory.organization.create',
} as const;

/** Organization names on creation (spec, Limits). */
export const ORGANIZATION_NAME_MIN = 2;
export const ORGANIZATION_NAME_MAX = 120;

/** `inventory.organization.create`: a partner creates a child organization (POST /organizations). */
export interface CreateOrganizationRequest {
  /** The caller's organization: the new one's parent. */
  parentOrgId: string;
  name: string;
  ownerEmail: string;
  plan?: string;
  billingMode?: string;
}

/**
 * What became of the owner's invitation e-mail (spec, Organization.owner_invite): `sent` when the mail port
 * accepted it, `failed` when it did not (the organization exists all the same), `existing_user` when the
 * address already owns an organization (no e-mail), `skipped` when there is no owner e-mail.
 */
export const OWNER_INVITE_OUTCOMES = ['sent', 'existing_user', 'failed', 'skipped'] as const;
export type OwnerInviteOutcome = (typeof OWNER_INVITE_OUTCOMES)[number];

export type OrganizationResource = ReturnType<typeof toResource<OrganizationDocument>>;

/** The reply: the Organization resource with `owner_invite`, which only the create response carries. */
export type CreatedOrganization = OrganizationResource & { owner_invite: OwnerInviteOutcome };
