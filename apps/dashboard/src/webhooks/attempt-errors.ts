import { ATTEMPT_ERRORS } from '@pss/contracts';
import type { Translate } from '../i18n/catalogue';

/** The notifier's `http_<status>: <start of the body>`: the receiver answered, but not with a 2xx. */
const HTTP_ERROR = /^http_(?<status>\d{3})(?::|$)/;

/**
 * A failed webhook attempt's outcome in the person's language: the notifier's fixed words (ATTEMPT_ERRORS, a key
 * each, so a new word without a sentence does not compile) and an HTTP status; undefined for anything else.
 */
export function knownWebhookError(t: Translate, error: string): string | undefined {
  const word = (Object.keys(ATTEMPT_ERRORS) as (keyof typeof ATTEMPT_ERRORS)[]).find((name) => ATTEMPT_ERRORS[name] === error);
  if (word) return t(`webhook-error.${word}`);
  const http = HTTP_ERROR.exec(error);
  return http ? t('webhook-error.http', { status: http.groups!.status }) : undefined;
}
