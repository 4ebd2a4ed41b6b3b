import { Inject, Injectable } from '@nestjs/common';
import { ORGANIZATIONS, type OrganizationDocument } from '@pss/contracts';
import { invitationTokenHash, newInvitationToken } from '@pss/contracts/dashboard-invitation';
import { AggregateRepository } from '@pss/platform';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { accessDecider, accessStream, type AccessCommand, type StoredPasskey } from './access.decider';
import { DASHBOARD_MEMBER_INVITATIONS, DASHBOARD_MEMBERS, type MemberDocument, type MemberInvitationDocument } from './members.read-model';
import type { Role } from './roles';

/** An invitation that can still be redeemed. */
export interface OpenInvitation {
  orgId: string;
  organizationName: string;
  email: string;
  hash: string;
  /** The role the person joins with: the owner's invitation makes the organization owner. */
  role: Role;
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

  /** The invitation a link's token names (the owner's or a member's), unless it expired, was replaced by a newer one or was redeemed. */
  async openInvitation(token: string, now: Date): Promise<OpenInvitation | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
    const hash = invitationTokenHash(token);
    return (await this.openOwnerInvitation(hash, now)) ?? this.openMemberInvitation(hash, now);
  }

  private async openMemberInvitation(hash: string, now: Date): Promise<OpenInvitation | null> {
    const invitation = await this.readStore.collection<MemberInvitationDocument>(DASHBOARD_MEMBER_INVITATIONS).findOne({ _id: hash });
    if (!invitation || Date.parse(invitation.expires_at) <= now.getTime()) return null;
    const organization = await this.readStore.collection<OrganizationDocument>(ORGANIZATIONS).findOne({ _id: invitation.org_id });
    return { orgId: invitation.org_id, organizationName: organization?.name ?? invitation.org_id, email: invitation.email, hash, role: invitation.role };
  }

  private async openOwnerInvitation(hash: string, now: Date): Promise<OpenInvitation | null> {
    const organization = await this.readStore.collection<OrganizationDocument>(ORGANIZATIONS).findOne({ '_owner_invitation.token_hash': hash });
    const invitation = organization?._owner_invitation;
    if (!organization?.owner_email || !invitation || Date.parse(invitation.expires_at) <= now.getTime()) return null;
    const { state } = await this.aggregates.load(accessStream(organization._id), accessDecider);
    if (state.redeemed.includes(hash)) return null;
    return { orgId: organization._id, organizationName: organization.name, email: organization.owner_email, hash, role: { kind: 'organization-owner' } };
  }

  /** The organization owner's membership once the invitation is redeemed with a first passkey (the decider refuses a second use). */
  async redeem(invitation: OpenInvitation, newMemberId: string, passkey: StoredPasskey, recoveryCodeHashes: string[], at: Date): Promise<MemberDocument> {
    const existing = await this.memberOf(invitation);
    const member = { memberId: existing?._id ?? newMemberId, email: invitation.email, role: invitation.role, recoveryCodeHashes, passkey };
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

  /** The organization's members, by e-mail. */
  membersOf(orgId: string): Promise<MemberDocument[]> {
    return this.members.find({ org_id: orgId }, { sort: { email: 1 } });
  }

  /**
   * A member's invitation to `orgId` (the actor's own, or a partner's child), valid 7 days: the token goes in the
   * link only, the stream keeps its hash.
   */
  async invite(orgId: string, actor: MemberDocument, email: string, role: Role, now: Date): Promise<{ token: string; expiresAt: string }> {
    const { token, hash, expiresAt } = newInvitationToken(now);
    await this.decide(orgId, { type: 'InviteMember', orgId, invitation: { hash, email, role, expiresAt }, at: now }, `user:${actor.email}`);
    return { token, expiresAt };
  }

  async changeRole(orgId: string, actor: MemberDocument, memberId: string, role: Role, now: Date): Promise<void> {
    await this.decide(orgId, { type: 'ChangeRole', orgId, memberId, role, at: now }, `user:${actor.email}`);
  }

  async remove(orgId: string, actor: MemberDocument, memberId: string, now: Date): Promise<void> {
    await this.decide(orgId, { type: 'RemoveMember', orgId, memberId, at: now }, `user:${actor.email}`);
  }

  /** Within the actor's own organization only: a child's owner hands it over themselves. */
  async handOver(actor: MemberDocument, toMemberId: string, now: Date): Promise<void> {
    await this.decide(actor.org_id, { type: 'HandOverOwnership', orgId: actor.org_id, fromMemberId: actor._id, toMemberId, at: now }, `user:${actor.email}`);
  }

  private async decide(orgId: string, command: AccessCommand, actor: string): Promise<void> {
    await this.aggregates.decide(accessStream(orgId), accessDecider, command, { actor, orgId });
  }
}
