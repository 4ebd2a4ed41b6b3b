import type { AuditDetails } from '@pss/contracts';
import { auditLogProjection, type AuditedChange } from '@pss/projections';
import type { AccessEvent } from '../access/access.decider';
import type { Role } from '../access/roles';

/** Changes to who is a member and with what role; passkey and recovery-code uses are sign-ins, not changes. */
type MembershipEvent = Exclude<AccessEvent, { type: 'PasskeyAdded' | 'PasskeyUsed' | 'RecoveryCodeUsed' }>;

const roleDetails = (role: Role): AuditDetails => ({ role: role.kind, store_ids: role.kind === 'store-owner' ? role.storeIds : [] });

/**
 * The dashboard's part of the audit log: its members (invited, joined, role changed, removed) and the
 * organization handed over. A member is named by their e-mail, the address they sign in with;
 * adding a passkey is recorded by no part of the log (the person's own access, not the organization's).
 */
export class DashboardAuditLogProjection extends auditLogProjection<MembershipEvent>({
  owner: 'dashboard',
  streamPrefixes: ['dashboard-access-'],
  handles: { InvitationRedeemed: true, MemberInvited: true, MemberRoleChanged: true, MemberRemoved: true, OwnershipHandedOver: true },
  describe(event): AuditedChange {
    switch (event.type) {
      case 'MemberInvited': {
        const { email, role } = event.data.invitation;
        return { target: { type: 'member', id: email, label: email }, action: 'member.invited', details: roleDetails(role) };
      }
      case 'InvitationRedeemed': {
        const { email, role } = event.data.member;
        return { target: { type: 'member', id: email, label: email }, action: 'member.joined', details: roleDetails(role) };
      }
      case 'MemberRoleChanged':
        return { target: { type: 'member', id: event.data.email, label: event.data.email }, action: 'member.role_changed', details: roleDetails(event.data.role) };
      case 'MemberRemoved':
        return { target: { type: 'member', id: event.data.email, label: event.data.email }, action: 'member.removed' };
      case 'OwnershipHandedOver':
        return { target: { type: 'organization', id: event.data.orgId }, action: 'organization.handed_over', details: { to: event.data.toEmail } };
    }
  },
}) {}
