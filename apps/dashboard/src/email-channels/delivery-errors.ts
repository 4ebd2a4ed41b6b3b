import type { MessageKey, Translate } from '../i18n/catalogue';

/**
 * The known outcomes of a failed e-mail, recognized in the `error` the notifier recorded, which is the mail
 * transport's own message: nodemailer's for SMTP (`<what failed>: <the server's reply>` when the server refused,
 * so the reply's code follows the first colon), Node's errno names for a connection. First match wins; the named
 * group `code` becomes the sentence's parameter.
 */
const KNOWN_OUTCOMES: ReadonlyArray<{ pattern: RegExp; key: MessageKey }> = [
  { pattern: /^(Connection timeout|Greeting never received|Timeout)$|\bETIMEDOUT\b/, key: 'delivery-error.timeout' },
  { pattern: /\bECONNREFUSED\b/, key: 'delivery-error.refused' },
  { pattern: /\b(ENOTFOUND|EAI_AGAIN)\b/, key: 'delivery-error.dns' },
  { pattern: /^Invalid login: (?<code>5\d\d)\b/, key: 'delivery-error.smtp-login' },
  { pattern: /^(Can't send mail - all recipients were rejected|Recipient command failed): (?<code>5\d\d)\b/, key: 'delivery-error.smtp-recipient' },
  { pattern: /^[^:]+: (?<code>5\d\d)\b/, key: 'delivery-error.smtp-permanent' },
  { pattern: /^[^:]+: (?<code>4\d\d)\b/, key: 'delivery-error.smtp-temporary' },
];

/** A failed e-mail's outcome said in the person's language, or undefined when the error is not a known one. */
export function knownDeliveryError(t: Translate, error: string): string | undefined {
  for (const { pattern, key } of KNOWN_OUTCOMES) {
    const found = pattern.exec(error);
    if (found) return t(key, { ...found.groups });
  }
  return undefined;
}
