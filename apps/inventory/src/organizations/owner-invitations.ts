import { Inject, Injectable, Logger } from '@nestjs/common';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { ORGANIZATIONS, type OrganizationDocument, type OwnerInviteOutcome } from '@pss/contracts';
import { MAIL_SENDER, type MailSender } from '@pss/mail';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { normalizeEmail, type OrganizationProfile } from './organization.decider';
import { ownerInvitationMail } from './owner-invitation-mail';

/** Invites the owner of a new organization by e-mail. A failed e-mail never fails the creation. */
@Injectable()
export class OwnerInvitations {
  private readonly logger = new Logger('OwnerInvitations');

  constructor(
    @Inject(MAIL_SENDER) private readonly mail: MailSender,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
  ) {}

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

  async invite(organization: OrganizationProfile, existingUser: boolean): Promise<OwnerInviteOutcome> {
    const { ownerEmail } = organization;
    if (!ownerEmail) return 'skipped';
    if (existingUser) return 'existing_user';
    try {
      await this.mail.send(ownerInvitationMail({ ...organization, ownerEmail }, this.config.publicUrl));
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
