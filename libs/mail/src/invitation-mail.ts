import type { MailMessage } from './mail-sender.port';

/**
 * An invitation to the dashboard, the owner's or a member's: plain text, no HTML, so nothing in it can be made a
 * link but the link itself. `introduction` says who invites whom to what; the rest is the same for every invitation.
 */
export function invitationMail(to: string, subject: string, introduction: string[], link: string): MailMessage {
  return {
    to,
    subject,
    text: [
      'Hello,',
      '',
      ...introduction,
      '',
      'To accept the invitation and set up your access with a passkey, open this link within 7 days (it works once):',
      link,
      '',
      'If you were not expecting this invitation, you can ignore this e-mail.',
      '',
    ].join('\n'),
  };
}

/**
 * An organization's name as an invitation's body quotes it: a person's input, so never in the subject (which a mail
 * list shows beside the service's sender address), and on one line without bidi or other format characters, which
 * could make the quoted name read as something else.
 */
export const quotedOrganizationName = (name: string): string => `"${name.replace(/\s+/g, ' ').replace(/\p{Cf}/gu, '')}"`;
