/**
 * The dashboard's roles (issue 31): one organization owner, who can do everything and hand the organization
 * over; store owners, for the stores listed on them; viewers, who read.
 */
export type Role = { kind: 'organization-owner' } | { kind: 'store-owner'; storeIds: string[] } | { kind: 'viewer' };

/** What a page or an action needs; every route names one (`DashboardRoute.requires`). */
export type Requirement = { kind: 'member' } | { kind: 'organization-owner' } | { kind: 'store-owner'; storeId: string };

export const REQUIRES_MEMBER: Requirement = { kind: 'member' };
export const REQUIRES_ORGANIZATION_OWNER: Requirement = { kind: 'organization-owner' };
export const requiresStoreOwner = (storeId: string): Requirement => ({ kind: 'store-owner', storeId });

/**
 * Whether a member may act in an organization other than their own, as a partner token does with `org_id`: the
 * partner's organization owner, in its child organizations.
 */
export const actsIn = (member: { org_id: string; role: Role }, organization: { parent_org_id: string | null }): boolean =>
  member.role.kind === 'organization-owner' && organization.parent_org_id === member.org_id;

/** The server-side check: the organization owner owns every store; a store owner only the listed ones. */
export function allows(role: Role, requirement: Requirement): boolean {
  switch (requirement.kind) {
    case 'member':
      return true;
    case 'organization-owner':
      return role.kind === 'organization-owner';
    case 'store-owner':
      return role.kind === 'organization-owner' || (role.kind === 'store-owner' && role.storeIds.includes(requirement.storeId));
  }
}
