import type { MailMessage } from '@pss/mail';
import type { OrganizationProfile } from './organization.decider';

/** Where the dashboard lets an invited owner accept; the e-mail carries nothing else that grants access. */
export const invitationLink = (publicUrl: string, orgId: string): string => `${publicUrl}/invite?org=${encodeURIComponent(orgId)}`;

/** The invitation in plain English text. Organization names are the caller's input: kept to one line. */
export function ownerInvitationMail(organization: OrganizationProfile & { ownerEmail: string }, publicUrl: string): MailMessage {
  const name = organization.name.replace(/\s+/g, ' ');
  return {
    to: organization.ownerEmail,
    subject: `You are invited to manage ${name}`,
    text: [
      'Hello,',
      '',
      `You have been named the owner of the organization "${name}" on Payment Page Script Security, the service that`,
      'keeps the inventory and the authorization of the scripts on your payment pages.',
      '',
      'To accept the invitation and set up your access, open:',
      invitationLink(publicUrl, organization.orgId),
      '',
      'If you were not expecting this invitation, you can ignore this e-mail.',
      '',
    ].join('\n'),
  };
}
