/**
 * The mail port: one message handed over for delivery. Adapters: an outbox folder (embedded mode) and SMTP
 * (distributed mode); both pass the one conformance suite in `mail-sender.conformance.ts`.
 */
export interface MailMessage {
  /** One recipient address. */
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative of `text`, when the sender has one. */
  html?: string;
}

export interface MailSender {
  /** Resolves once the message is accepted for delivery (written to the outbox, or accepted by the SMTP server). */
  send(message: MailMessage): Promise<void>;
}

export const MAIL_SENDER = Symbol('MailSender');

const ADDRESS_PATTERN = /^[^\s@<>,;]+@[^\s@<>,;]+$/;

/** Both adapters refuse the same malformed messages, before anything is written or sent. */
export function assertSendable(message: MailMessage): void {
  if (!ADDRESS_PATTERN.test(message.to)) throw new Error('mail recipient is not a single e-mail address');
  if (!message.subject.trim()) throw new Error('mail subject is empty');
}
