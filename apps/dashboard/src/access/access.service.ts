import { Inject, Injectable } from '@nestjs/common';
import { ORGANIZATIONS, type OrganizationDocument } from '@pss/contracts';
import { invitationTokenHash } from '@pss/contracts/dashboard-invitation';
import { AggregateRepository } from '@pss/platform';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { accessDecider, accessStream, type AccessCommand, type StoredPasskey } from './access.decider';
import { DASHBOARD_MEMBERS, type MemberDocument } from './members.read-model';

/** An invitation that can still be redeemed. */
export interface OpenInvitation {
  orgId: string;
  organizationName: string;
  email: string;
  hash: string;
}

/** Who may sign in to the dashboard: the access streams (written here) and the members read model (read here). */
@Injectable()
export class Access {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {}

  private get members() {
    return this.readStore.collection<MemberDocument>(DASHBOARD_MEMBERS);
  }

  /** The invitation a link's token names, unless it expired, was replaced by a newer one or was redeemed. */
  async openInvitation(token: string, now: Date): Promise<OpenInvitation | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
    const hash = invitationTokenHash(token);
    const organization = await this.readStore.collection<OrganizationDocument>(ORGANIZATIONS).findOne({ '_owner_invitation.token_hash': hash });
    const invitation = organization?._owner_invitation;
    if (!organization?.owner_email || !invitation || Date.parse(invitation.expires_at) <= now.getTime()) return null;
    const { state } = await this.aggregates.load(accessStream(organization._id), accessDecider);
    if (state.redeemed.includes(hash)) return null;
    return { orgId: organization._id, organizationName: organization.name, email: organization.owner_email, hash };
  }

  /** The organization owner's membership once the invitation is redeemed with a first passkey (the decider refuses a second use). */
  async redeem(invitation: OpenInvitation, newMemberId: string, passkey: StoredPasskey, recoveryCodeHashes: string[], at: Date): Promise<MemberDocument> {
    const existing = await this.memberOf(invitation);
    const member = { memberId: existing?._id ?? newMemberId, email: invitation.email, role: { kind: 'organization-owner' as const }, recoveryCodeHashes, passkey };
    await this.decide(invitation.orgId, { type: 'RedeemInvitation', orgId: invitation.orgId, invitationHash: invitation.hash, member, at }, `user:${invitation.email}`);
    return (await this.members.findOne({ _id: member.memberId }))!;
  }

  /** The member the invitation's person already is (a second invitation to the same owner), if any. */
  memberOf(invitation: OpenInvitation): Promise<MemberDocument | null> {
    return this.members.findOne({ org_id: invitation.orgId, email: invitation.email });
  }

  byPasskey(credentialId: string): Promise<MemberDocument | null> {
    return this.members.findOne({ passkey_ids: credentialId });
  }

  byEmail(email: string): Promise<MemberDocument[]> {
    return this.members.find({ email: email.trim().toLowerCase() });
  }

  async addPasskey(member: MemberDocument, passkey: StoredPasskey, at: Date): Promise<void> {
    await this.decide(member.org_id, { type: 'AddPasskey', orgId: member.org_id, memberId: member._id, passkey, at }, `user:${member.email}`);
  }

  async usePasskey(member: MemberDocument, passkeyId: string, counter: number, at: Date): Promise<void> {
    await this.decide(member.org_id, { type: 'UsePasskey', orgId: member.org_id, memberId: member._id, passkeyId, counter, at }, `user:${member.email}`);
  }

  async useRecoveryCode(member: MemberDocument, codeHash: string, at: Date): Promise<void> {
    await this.decide(member.org_id, { type: 'UseRecoveryCode', orgId: member.org_id, memberId: member._id, codeHash, at }, `user:${member.email}`);
  }

  private async decide(orgId: string, command: AccessCommand, actor: string): Promise<void> {
    await this.aggregates.decide(accessStream(orgId), accessDecider, command, { actor, orgId });
  }
}
