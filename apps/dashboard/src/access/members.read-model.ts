import type { Role } from './roles';
import type { StoredPasskey } from './access.decider';

/** Read model `dashboard_members` (owner and only reader: the dashboard): who signs in, with which passkeys. */
export const DASHBOARD_MEMBERS = 'dashboard_members';

export interface MemberDocument {
  /** The member id. */
  _id: string;
  org_id: string;
  email: string;
  role: Role;
  /** By credential id (base64url, so a safe field name): a sign-in updates one passkey's counter in place. */
  passkeys: Record<string, StoredPasskey>;
  /** The credential ids again, as a list to look a sign-in's credential up by. */
  passkey_ids: string[];
  recovery_code_hashes: string[];
}

/** The member's passkey of a credential id an answer named (any string: never a key of Object.prototype). */
export const passkeyOf = (member: MemberDocument, credentialId: string): StoredPasskey | undefined =>
  Object.prototype.hasOwnProperty.call(member.passkeys, credentialId) ? member.passkeys[credentialId] : undefined;

/** Read model `dashboard_member_invitations`: members' open invitations, by the hash of their link's token. */
export const DASHBOARD_MEMBER_INVITATIONS = 'dashboard_member_invitations';

export interface MemberInvitationDocument {
  /** The hash of the link's token. */
  _id: string;
  org_id: string;
  email: string;
  role: Role;
  expires_at: string;
}
