import { invitationMail, quotedOrganizationName, type MailMessage } from '@pss/mail';
import type { OrganizationProfile } from './organization.decider';

/** The owner's invitation (names that look like links are refused when the organization is created). */
export function ownerInvitationMail(organization: OrganizationProfile & { ownerEmail: string }, link: string): MailMessage {
  const name = quotedOrganizationName(organization.name);
  return invitationMail(organization.ownerEmail, 'You are invited to manage an organization on Payment Page Script Security', [
    `You have been named the owner of the organization ${name} on Payment Page Script Security, the service that`,
    'keeps the inventory and the authorization of the scripts on your payment pages.',
  ], link);
}
