import { canHandle } from '@pss/event-store';
import { applyOnce, readModelProjection } from '@pss/projections';
import type { AccessEvent } from './access.decider';
import { DASHBOARD_MEMBER_INVITATIONS, DASHBOARD_MEMBERS, type MemberDocument, type MemberInvitationDocument } from './members.read-model';

const isAccessEvent = canHandle<AccessEvent>({ InvitationRedeemed: true, PasskeyAdded: true, PasskeyUsed: true, RecoveryCodeUsed: true, MemberInvited: true, MemberRoleChanged: true, MemberRemoved: true, OwnershipHandedOver: true });

export class MembersProjection extends readModelProjection({
  name: DASHBOARD_MEMBERS,
  streamPrefixes: ['dashboard-access-'],
  collections: {
    [DASHBOARD_MEMBERS]: [{ key: { passkey_ids: 1 } }, { key: { email: 1 } }, { key: { org_id: 1, email: 1 } }],
    [DASHBOARD_MEMBER_INVITATIONS]: [],
  },
  canHandle: isAccessEvent,
  async evolve(event, context) {
    const members = context.collection<MemberDocument>(DASHBOARD_MEMBERS);
    const invitations = context.collection<MemberInvitationDocument>(DASHBOARD_MEMBER_INVITATIONS);
    switch (event.type) {
      case 'InvitationRedeemed': {
        const { member } = event.data;
        await applyOnce(members, member.memberId, event, {
          $set: {
            org_id: event.data.orgId,
            email: member.email,
            role: member.role,
            passkeys: Object.fromEntries(member.passkeys.map((passkey) => [passkey.id, passkey])),
            passkey_ids: member.passkeys.map((passkey) => passkey.id),
            recovery_code_hashes: member.recoveryCodeHashes,
          },
        }, { upsert: true });
        await invitations.deleteMany({ _id: event.data.invitationHash });
        return;
      }
      case 'PasskeyAdded':
        await applyOnce(members, event.data.memberId, event, { $set: { [`passkeys.${event.data.passkey.id}`]: event.data.passkey }, $push: { passkey_ids: event.data.passkey.id } });
        return;
      case 'PasskeyUsed':
        await applyOnce(members, event.data.memberId, event, { $set: { [`passkeys.${event.data.passkeyId}.counter`]: event.data.counter, [`passkeys.${event.data.passkeyId}.lastUsedAt`]: event.data.at } });
        return;
      case 'RecoveryCodeUsed':
        await applyOnce(members, event.data.memberId, event, { $pull: { recovery_code_hashes: event.data.codeHash } });
        return;
      case 'MemberInvited': {
        const { hash, email, role, expiresAt } = event.data.invitation;
        // A newer invitation to the same address replaces the older one, as in the decider.
        await invitations.deleteMany({ org_id: event.data.orgId, email });
        await applyOnce(invitations, hash, event, { $set: { org_id: event.data.orgId, email, role, expires_at: expiresAt } }, { upsert: true });
        return;
      }
      case 'MemberRoleChanged':
        await applyOnce(members, event.data.memberId, event, { $set: { role: event.data.role } });
        return;
      case 'MemberRemoved':
        await members.deleteMany({ _id: event.data.memberId });
        return;
      case 'OwnershipHandedOver':
        await applyOnce(members, event.data.fromMemberId, event, { $set: { role: { kind: 'viewer' } } });
        await applyOnce(members, event.data.toMemberId, event, { $set: { role: { kind: 'organization-owner' } } });
        return;
    }
  },
}) {}
