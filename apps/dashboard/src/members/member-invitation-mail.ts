import { invitationMail, quotedOrganizationName, type MailMessage } from '@pss/mail';

/** A member's invitation, like the owner's but naming who invited them. */
export function memberInvitationMail(to: string, organizationName: string, invitedBy: string, link: string): MailMessage {
  return invitationMail(to, 'You are invited to a dashboard on Payment Page Script Security', [
    `${invitedBy} invited you to the organization ${quotedOrganizationName(organizationName)} on Payment Page Script Security.`,
  ], link);
}
