import type { AlertDocument, AlertType } from '@pss/contracts';
import type { MessageKey, Translate } from '../i18n/catalogue';

/** How a sentence shows an instant (the page passes the store's zone and the reader's language). */
export type ShowInstant = (iso: string) => string;

type Details = Record<string, unknown>;
type Words = (details: Details, alert: AlertDocument, say: Say) => string;

interface Say {
  t: Translate;
  /** A detail as text; the alert's `unknown` word when the occurrence did not carry it. */
  text(value: unknown): string;
  when: ShowInstant;
}

/**
 * What each alert type's details say, as one sentence: a reviewer reads what happened, not the JSON. Every type of
 * the contracts is here (the map's type makes a new type a compile error until it has its sentence).
 */
const SENTENCES: Record<AlertType, Words> = {
  SCRIPT_INTEGRITY_MISMATCH: (d, _alert, { t, text }) =>
    d.sri_refused
      ? t('alerts.say.sri-refused', { src: text(d.src), served: text(d.new_hash), pinned: text(d.refused_integrity) })
      : t('alerts.say.integrity', { src: text(d.src), hash: text(d.new_hash), authorized: text(d.authorized_hash), previous: text(d.previous_hash) }),
  HEADER_CHANGED: (d, alert, { t, text }) => {
    const change = String(d.change_type ?? alert.change_type ?? 'changed');
    const key = (['added', 'removed'].includes(change) ? `alerts.say.header.${change}` : 'alerts.say.header.changed') as MessageKey;
    return t(key, { header: text(d.header), page: text(d.page ?? alert.page), old: text(d.old_value), new: text(d.new_value) });
  },
  CSP_VIOLATION: (d, _alert, { t, text }) => t('alerts.say.csp', { blocked: text(d.blocked_uri), directive: text(d.directive), file: text(d.source_file) }),
  MALICIOUS_SCRIPT: (d, _alert, { t, text }) => t('alerts.say.malicious', { src: text(d.src), host: text(d.host), hash: text(d.hash) }),
  SENSITIVE_FIELD_ACCESS: (d, _alert, { t, text }) => {
    const via = Array.isArray(d.read_via) && d.read_via.length ? t('alerts.say.sensitive.via', { via: d.read_via.join(', ') }) : '';
    return t('alerts.say.sensitive', { src: text(d.src), field: text(d.field), via });
  },
  UNEXPECTED_IFRAME: (d, _alert, { t, text }) => {
    const expected = Array.isArray(d.expected) && d.expected.length ? d.expected.join(', ') : t('alerts.say.none-expected');
    return t('alerts.say.iframe', { origin: text(d.origin), expected });
  },
  RECIPIENT_MISMATCH: (d, _alert, { t, text }) => t('alerts.say.recipient', { method: text(d.method), pinned: text(d.pinned), hash: text(d.key_hash) }),
  SDK_SILENT: (d, _alert, { t, text, when }) =>
    t('alerts.say.silent', { domain: text(d.domain), since: typeof d.last_event_at === 'string' ? when(d.last_event_at) : text(null) }),
  NEW_CONNECTION: (d, _alert, { t, text }) => {
    const by = d.initiator ? t('alerts.say.connection.by', { initiator: text(d.initiator) }) : '';
    const read = d.sensitive_read as Details | null | undefined;
    const after = read ? t('alerts.say.connection.after-read', { src: text(read.src), field: text(read.field) }) : '';
    return t('alerts.say.connection', { origin: text(d.origin), via: text(d.via), by, after });
  },
};

/**
 * The alert's details in sentences: what happened, then where (the page it was seen on). Details the occurrence
 * did not carry are said to be unknown rather than left out, so a sentence never claims more than the alert.
 */
export function alertSentences(alert: AlertDocument, t: Translate, when: ShowInstant): string[] {
  const details: Details = alert.details ?? {};
  const say: Say = { t, when, text: (value) => (value === null || value === undefined || value === '' ? t('alerts.say.unknown') : String(value)) };
  const sentences = [SENTENCES[alert.type](details, alert, say)];
  const page = details.page_url ?? alert.page;
  if (alert.type !== 'SDK_SILENT' && page) sentences.push(t('alerts.say.page', { page: String(page) }));
  return sentences;
}
