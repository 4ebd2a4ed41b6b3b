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

/** Who may sign in to one organization's dashboard, and with what: the stream `dashboard-access-<orgId>`. */
export interface AccessState {
  members: Member[];
  /** Invitations already redeemed, by token hash: each works once. */
  redeemed: string[];
}

export type AccessEvent =
  | DomainEvent<'InvitationRedeemed', { orgId: string; invitationHash: string; member: Member; at: string }>
  | DomainEvent<'PasskeyAdded', { orgId: string; memberId: string; passkey: StoredPasskey; at: string }>
  | DomainEvent<'PasskeyUsed', { orgId: string; memberId: string; passkeyId: string; counter: number; at: string }>
  | DomainEvent<'RecoveryCodeUsed', { orgId: string; memberId: string; codeHash: string; at: string }>;

export type AccessCommand =
  | { type: 'RedeemInvitation'; orgId: string; invitationHash: string; member: Omit<Member, 'passkeys'> & { passkey: StoredPasskey }; at: Date }
  | { type: 'AddPasskey'; orgId: string; memberId: string; passkey: StoredPasskey; at: Date }
  | { type: 'UsePasskey'; orgId: string; memberId: string; passkeyId: string; counter: number; at: Date }
  | { type: 'UseRecoveryCode'; orgId: string; memberId: string; codeHash: string; at: Date };

export const INVITATION_USED_MESSAGE = 'This invitation was used already';
export const RECOVERY_CODE_REFUSED_MESSAGE = 'Wrong e-mail or recovery code';

const memberOf = (state: AccessState, memberId: string): Member => {
  const member = state.members.find((candidate) => candidate.memberId === memberId);
  if (!member) throw new DomainError('not_found', 'Member not found');
  return member;
};

const updateMember = (state: AccessState, memberId: string, change: (member: Member) => Member): AccessState => ({
  ...state,
  members: state.members.map((member) => (member.memberId === memberId ? change(member) : member)),
});

export const accessDecider: Decider<AccessState, AccessCommand, AccessEvent> = {
  initialState: () => ({ members: [], redeemed: [] }),

  decide(command, state) {
    const at = command.at.toISOString();
    switch (command.type) {
      case 'RedeemInvitation': {
        if (state.redeemed.includes(command.invitationHash)) throw new DomainError('conflict', INVITATION_USED_MESSAGE);
        const { passkey, ...member } = command.member;
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
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'InvitationRedeemed': {
        const { member, invitationHash } = event.data;
        const others = state.members.filter((candidate) => candidate.memberId !== member.memberId);
        return { members: [...others, member], redeemed: [...state.redeemed, invitationHash] };
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
    }
  },
};

export const accessStream = (orgId: string): string => `dashboard-access-${orgId}`;
