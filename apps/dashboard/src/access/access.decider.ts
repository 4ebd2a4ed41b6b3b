import { DomainError, type Decider, type DomainEvent } from '@pss/kernel';
import type { Role } from './roles';

/** A registered passkey, as @simplewebauthn/server needs it to verify the next sign-in. */
export interface StoredPasskey {
  /** The credential id, base64url. */
  id: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  createdAt: string;
  lastUsedAt: string | null;
}

export interface Member {
  memberId: string;
  email: string;
  role: Role;
  passkeys: StoredPasskey[];
  /** Hashes of the recovery codes not used yet. */
  recoveryCodeHashes: string[];
}

/** A member invited by the organization owner, not joined yet: only the link's hash is kept. */
export interface MemberInvitation {
  hash: string;
  email: string;
  role: Role;
  expiresAt: string;
}

/** Who may sign in to one organization's dashboard, and with what: the stream `dashboard-access-<orgId>`. */
export interface AccessState {
  members: Member[];
  /** Invitations already redeemed, by token hash: each works once. */
  redeemed: string[];
  /** Members' invitations still open (the owner's live on the organization, in inventory). */
  invitations: MemberInvitation[];
}

export type AccessEvent =
  | DomainEvent<'InvitationRedeemed', { orgId: string; invitationHash: string; member: Member; at: string }>
  | DomainEvent<'PasskeyAdded', { orgId: string; memberId: string; passkey: StoredPasskey; at: string }>
  | DomainEvent<'PasskeyUsed', { orgId: string; memberId: string; passkeyId: string; counter: number; at: string }>
  | DomainEvent<'RecoveryCodeUsed', { orgId: string; memberId: string; codeHash: string; at: string }>
  | DomainEvent<'MemberInvited', { orgId: string; invitation: MemberInvitation; at: string }>
  | DomainEvent<'MemberRoleChanged', { orgId: string; memberId: string; email: string; role: Role; at: string }>
  | DomainEvent<'MemberRemoved', { orgId: string; memberId: string; email: string; at: string }>
  | DomainEvent<'OwnershipHandedOver', { orgId: string; fromMemberId: string; toMemberId: string; toEmail: string; at: string }>;

export type AccessCommand =
  | { type: 'RedeemInvitation'; orgId: string; invitationHash: string; member: Omit<Member, 'passkeys'> & { passkey: StoredPasskey }; at: Date }
  | { type: 'AddPasskey'; orgId: string; memberId: string; passkey: StoredPasskey; at: Date }
  | { type: 'UsePasskey'; orgId: string; memberId: string; passkeyId: string; counter: number; at: Date }
  | { type: 'UseRecoveryCode'; orgId: string; memberId: string; codeHash: string; at: Date }
  | { type: 'InviteMember'; orgId: string; invitation: MemberInvitation; at: Date }
  | { type: 'ChangeRole'; orgId: string; memberId: string; role: Role; at: Date }
  | { type: 'RemoveMember'; orgId: string; memberId: string; at: Date }
  | { type: 'HandOverOwnership'; orgId: string; fromMemberId: string; toMemberId: string; at: Date };

export const INVITATION_USED_MESSAGE = 'This invitation was used already';
export const RECOVERY_CODE_REFUSED_MESSAGE = 'Wrong e-mail or recovery code';
export const ALREADY_MEMBER_MESSAGE = 'This person is a member already';
/** The owner's role moves only by a hand-over, so there is always exactly one. */
export const OWNER_ROLE_MESSAGE = "The organization owner's role changes only by handing the organization over";
export const MEMBER_NOT_FOUND_MESSAGE = 'Member not found';
export const HAND_OVER_BY_OWNER_MESSAGE = 'Only the organization owner can hand the organization over';
export const HAND_OVER_TO_ANOTHER_MESSAGE = 'Hand the organization over to another member';

const memberOf = (state: AccessState, memberId: string): Member => {
  const member = state.members.find((candidate) => candidate.memberId === memberId);
  if (!member) throw new DomainError('not_found', MEMBER_NOT_FOUND_MESSAGE);
  return member;
};

const updateMember = (state: AccessState, memberId: string, change: (member: Member) => Member): AccessState => ({
  ...state,
  members: state.members.map((member) => (member.memberId === memberId ? change(member) : member)),
});

export const accessDecider: Decider<AccessState, AccessCommand, AccessEvent> = {
  initialState: () => ({ members: [], redeemed: [], invitations: [] }),

  decide(command, state) {
    const at = command.at.toISOString();
    switch (command.type) {
      case 'RedeemInvitation': {
        if (state.redeemed.includes(command.invitationHash)) throw new DomainError('conflict', INVITATION_USED_MESSAGE);
        const { passkey, ...member } = command.member;
        // A member's role comes from the owner's invitation, open on this stream; only the owner's lives elsewhere (inventory).
        if (member.role.kind !== 'organization-owner' && !state.invitations.some((invitation) => invitation.hash === command.invitationHash && invitation.email === member.email)) {
          throw new DomainError('conflict', INVITATION_USED_MESSAGE);
        }
        // The owner invited again (a lost passkey, a new invitation) keeps their membership and gains the passkey.
        const existing = state.members.find((candidate) => candidate.email === member.email);
        const joined = existing ? { ...existing, role: member.role, recoveryCodeHashes: member.recoveryCodeHashes, passkeys: [...existing.passkeys, passkey] } : { ...member, passkeys: [passkey] };
        return [{ type: 'InvitationRedeemed', data: { orgId: command.orgId, invitationHash: command.invitationHash, member: joined, at } }];
      }
      case 'AddPasskey':
        memberOf(state, command.memberId);
        return [{ type: 'PasskeyAdded', data: { orgId: command.orgId, memberId: command.memberId, passkey: command.passkey, at } }];
      case 'UsePasskey': {
        const passkey = memberOf(state, command.memberId).passkeys.find((candidate) => candidate.id === command.passkeyId);
        if (!passkey) throw new DomainError('not_found', 'Passkey not found');
        return [{ type: 'PasskeyUsed', data: { orgId: command.orgId, memberId: command.memberId, passkeyId: command.passkeyId, counter: command.counter, at } }];
      }
      case 'UseRecoveryCode': {
        // Refused with the sign-in form's message: whether the address or the code was wrong stays unsaid.
        if (!memberOf(state, command.memberId).recoveryCodeHashes.includes(command.codeHash)) throw new DomainError('unauthorized', RECOVERY_CODE_REFUSED_MESSAGE);
        return [{ type: 'RecoveryCodeUsed', data: { orgId: command.orgId, memberId: command.memberId, codeHash: command.codeHash, at } }];
      }
      case 'InviteMember': {
        const { invitation } = command;
        if (invitation.role.kind === 'organization-owner') throw new DomainError('validation_error', OWNER_ROLE_MESSAGE);
        if (state.members.some((member) => member.email === invitation.email)) throw new DomainError('conflict', ALREADY_MEMBER_MESSAGE);
        return [{ type: 'MemberInvited', data: { orgId: command.orgId, invitation, at } }];
      }
      case 'ChangeRole': {
        const member = memberOf(state, command.memberId);
        if (member.role.kind === 'organization-owner' || command.role.kind === 'organization-owner') throw new DomainError('validation_error', OWNER_ROLE_MESSAGE);
        return [{ type: 'MemberRoleChanged', data: { orgId: command.orgId, memberId: member.memberId, email: member.email, role: command.role, at } }];
      }
      case 'RemoveMember': {
        const member = memberOf(state, command.memberId);
        if (member.role.kind === 'organization-owner') throw new DomainError('validation_error', OWNER_ROLE_MESSAGE);
        return [{ type: 'MemberRemoved', data: { orgId: command.orgId, memberId: member.memberId, email: member.email, at } }];
      }
      case 'HandOverOwnership': {
        const from = memberOf(state, command.fromMemberId);
        const to = memberOf(state, command.toMemberId);
        if (from.role.kind !== 'organization-owner') throw new DomainError('forbidden', HAND_OVER_BY_OWNER_MESSAGE);
        if (to.memberId === from.memberId) throw new DomainError('validation_error', HAND_OVER_TO_ANOTHER_MESSAGE);
        return [{ type: 'OwnershipHandedOver', data: { orgId: command.orgId, fromMemberId: from.memberId, toMemberId: to.memberId, toEmail: to.email, at } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'InvitationRedeemed': {
        const { member, invitationHash } = event.data;
        const others = state.members.filter((candidate) => candidate.memberId !== member.memberId);
        const invitations = state.invitations.filter((invitation) => invitation.hash !== invitationHash);
        return { members: [...others, member], redeemed: [...state.redeemed, invitationHash], invitations };
      }
      case 'PasskeyAdded':
        return updateMember(state, event.data.memberId, (member) => ({ ...member, passkeys: [...member.passkeys, event.data.passkey] }));
      case 'PasskeyUsed': {
        const { passkeyId, counter, at } = event.data;
        return updateMember(state, event.data.memberId, (member) => ({
          ...member,
          passkeys: member.passkeys.map((passkey) => (passkey.id === passkeyId ? { ...passkey, counter, lastUsedAt: at } : passkey)),
        }));
      }
      case 'RecoveryCodeUsed':
        return updateMember(state, event.data.memberId, (member) => ({ ...member, recoveryCodeHashes: member.recoveryCodeHashes.filter((hash) => hash !== event.data.codeHash) }));
      case 'MemberInvited': {
        // A newer invitation to the same address replaces the older one.
        const others = state.invitations.filter((invitation) => invitation.email !== event.data.invitation.email);
        return { ...state, invitations: [...others, event.data.invitation] };
      }
      case 'MemberRoleChanged':
        return updateMember(state, event.data.memberId, (member) => ({ ...member, role: event.data.role }));
      case 'MemberRemoved':
        return { ...state, members: state.members.filter((member) => member.memberId !== event.data.memberId) };
      case 'OwnershipHandedOver': {
        // The former owner stays, as a viewer: the new owner decides what more they may do.
        const handed = updateMember(state, event.data.fromMemberId, (member) => ({ ...member, role: { kind: 'viewer' } }));
        return updateMember(handed, event.data.toMemberId, (member) => ({ ...member, role: { kind: 'organization-owner' } }));
      }
    }
  },
};

export const accessStream = (orgId: string): string => `dashboard-access-${orgId}`;
