import type { MailMessage } from '@pss/mail';

/** A member's invitation in plain text, like the owner's: the organization's name quoted on one line, never in the subject. */
export function memberInvitationMail(to: string, organizationName: string, invitedBy: string, link: string): MailMessage {
  // Bidi and other format characters could make the quoted name read as something else.
  const name = organizationName.replace(/\s+/g, ' ').replace(/\p{Cf}/gu, '');
  return {
    to,
    subject: 'You are invited to a dashboard on Payment Page Script Security',
    text: [
      'Hello,',
      '',
      `${invitedBy} invited you to the organization "${name}" on Payment Page Script Security.`,
      '',
      'To accept the invitation and set up your access with a passkey, open this link within 7 days (it works once):',
      link,
      '',
      'If you were not expecting this invitation, you can ignore this e-mail.',
      '',
    ].join('\n'),
  };
}
