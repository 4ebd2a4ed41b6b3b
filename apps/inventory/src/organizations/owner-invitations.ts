import { Inject, Injectable, Logger } from '@nestjs/common';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { ORGANIZATIONS, type OrganizationDocument, type OwnerInviteOutcome } from '@pss/contracts';
import { invitationLink, newInvitationToken } from '@pss/contracts/dashboard-invitation';
import { CLOCK, type Clock } from '@pss/kernel';
import { AggregateRepository, type CommandContext } from '@pss/platform';
import { MAIL_SENDER, type MailSender } from '@pss/mail';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { normalizeEmail, organizationDecider, organizationStream, type OrganizationProfile } from './organization.decider';
import { ownerInvitationMail } from './owner-invitation-mail';

/** Invites the owner of a new organization by e-mail. A failed e-mail never fails the creation. */
@Injectable()
export class OwnerInvitations {
  private readonly logger = new Logger('OwnerInvitations');

  constructor(
    @Inject(MAIL_SENDER) private readonly mail: MailSender,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * A fresh dashboard invitation link for the organization's owner, valid 7 days; it replaces any earlier one.
   * The token is in the answer and the mail only: the organization's stream keeps its hash.
   */
  async issue(orgId: string, context: CommandContext): Promise<{ invitation_link: string; expires_at: string }> {
    const { token, hash, expiresAt } = newInvitationToken(this.clock.now());
    await this.aggregates.decide(organizationStream(orgId), organizationDecider, { type: 'IssueOwnerInvitation', tokenHash: hash, expiresAt, at: this.clock.now() }, { ...context, orgId });
    return { invitation_link: invitationLink(this.config.publicUrl, token), expires_at: expiresAt };
  }

  /**
   * Whether the address already owns an organization, so its owner has access and needs no invitation. Asked
   * before the new organization exists: afterwards it would list the address itself.
   */
  async isExistingUser(ownerEmail: string | null | undefined): Promise<boolean> {
    if (!ownerEmail) return false;
    const owned = await this.readStore
      .collection<OrganizationDocument>(ORGANIZATIONS)
      .findOne({ owner_email: normalizeEmail(ownerEmail) });
    return owned !== null;
  }

  async invite(organization: OrganizationProfile, existingUser: boolean, context: CommandContext): Promise<OwnerInviteOutcome> {
    const { ownerEmail } = organization;
    if (!ownerEmail) return 'skipped';
    if (existingUser) return 'existing_user';
    const { invitation_link: link } = await this.issue(organization.orgId, context);
    try {
      await this.mail.send(ownerInvitationMail({ ...organization, ownerEmail }, link));
      return 'sent';
    } catch (failure) {
      // Mail servers quote the recipient in their refusals: the address stays out of the logs.
      const { message, code } = failure as Error & { code?: string };
      const error = message.split(ownerEmail).join('<owner>');
      this.logger.warn({ message: 'owner invitation not sent', org_id: organization.orgId, code, error });
      return 'failed';
    }
  }
}
