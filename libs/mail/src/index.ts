export * from './mail-sender.port';
export * from './invitation-mail';
export * from './mail-settings';
export * from './mail.module';
export { OutboxMailSender, OUTBOX_EXTENSION, type OutboxFile } from './outbox/outbox-mail-sender';
export { SmtpMailSender } from './smtp/smtp-mail-sender';
