import type { MailMessage } from '@pss/mail';
import type { OrganizationProfile } from './organization.decider';

/**
 * The invitation in plain English text, no HTML: the name cannot be made a link. Organization names are the
 * creator's input, so the subject, which a mail list shows beside the service's sender address, has none; in the
 * body it is quoted on one line (names that look like links are refused when the organization is created).
 */
export function ownerInvitationMail(organization: OrganizationProfile & { ownerEmail: string }, link: string): MailMessage {
  // Bidi and other format characters could make the quoted name read as something else.
  const name = organization.name.replace(/\s+/g, ' ').replace(/\p{Cf}/gu, '');
  return {
    to: organization.ownerEmail,
    subject: 'You are invited to manage an organization on Payment Page Script Security',
    text: [
      'Hello,',
      '',
      `You have been named the owner of the organization "${name}" on Payment Page Script Security, the service that`,
      'keeps the inventory and the authorization of the scripts on your payment pages.',
      '',
      'To accept the invitation and set up your access with a passkey, open this link within 7 days (it works once):',
      link,
      '',
      'If you were not expecting this invitation, you can ignore this e-mail.',
      '',
    ].join('\n'),
  };
}
