import { ALERT_TYPES, type AlertDocument, type AlertType } from '@pss/contracts';
import { translator } from '../i18n/catalogue';
import { alertSentences } from './alert-sentences';

const alert = (type: AlertType, details: Record<string, unknown> | null, fields: Partial<AlertDocument> = {}): AlertDocument => ({
  _id: 'a1',
  org_id: 'o1',
  store_id: 's1',
  type,
  change_type: null,
  severity: 'high',
  status: 'open',
  source: null,
  page: '/checkout',
  details,
  fingerprint: 'f',
  occurrences: 1,
  sessions_count: 1,
  first_seen_at: '2026-11-01T10:00:00.000Z',
  last_seen_at: '2026-11-01T10:00:00.000Z',
  resolved_at: null,
  resolved_by_label: null,
  note: null,
  snoozed_until: null,
  auto_resolved: false,
  created_at: '2026-11-01T10:00:00.000Z',
  ...fields,
});

/** One alert of each type, with the details docs/alerts.md gives that type. */
const EXAMPLES: Record<AlertType, AlertDocument> = {
  SCRIPT_INTEGRITY_MISMATCH: alert('SCRIPT_INTEGRITY_MISMATCH', { script_id: 'x', src: 'https://cdn.example/pay.js', previous_hash: 'sha384-old', new_hash: 'sha384-new', authorized_hash: 'sha384-old', page_url: 'https://shop.example/checkout' }),
  HEADER_CHANGED: alert('HEADER_CHANGED', { header: 'content-security-policy', change_type: 'changed', old_value: "script-src 'self'", new_value: '*', page: '/checkout', page_url: 'https://shop.example/checkout' }, { change_type: 'changed' }),
  CSP_VIOLATION: alert('CSP_VIOLATION', { directive: 'script-src', blocked_uri: 'https://evil.example/x.js', source_file: 'https://shop.example/checkout', page_url: 'https://shop.example/checkout' }),
  MALICIOUS_SCRIPT: alert('MALICIOUS_SCRIPT', { script_id: 'x', src: 'https://evil.example/skim.js', host: 'evil.example', hash: 'sha384-bad', page_url: 'https://shop.example/checkout' }),
  SENSITIVE_FIELD_ACCESS: alert('SENSITIVE_FIELD_ACCESS', { script_id: 'x', src: 'https://evil.example/skim.js', field: 'card-number', read_via: ['https://cdn.example/jquery.js'], page_url: 'https://shop.example/checkout' }),
  UNEXPECTED_IFRAME: alert('UNEXPECTED_IFRAME', { origin: 'https://frame.example', host: 'frame.example', expected: ['https://psp.example'], page_url: 'https://shop.example/checkout' }),
  RECIPIENT_MISMATCH: alert('RECIPIENT_MISMATCH', { method: 'pix', key_hash: 'abc123', pinned: 2, page_url: 'https://shop.example/checkout' }),
  SDK_SILENT: alert('SDK_SILENT', { domain: 'shop.example', last_event_at: '2026-10-30T12:00:00.000Z' }, { page: null }),
  NEW_CONNECTION: alert('NEW_CONNECTION', {
    connection_id: 'c',
    origin: 'https://exfil.example',
    via: 'beacon',
    initiator: 'https://evil.example/skim.js',
    initiator_script_id: 'x',
    sensitive_read: { script_id: 'x', src: 'https://evil.example/skim.js', field: 'cvv' },
    page_url: 'https://shop.example/checkout',
  }),
};

const when = (iso: string) => `<${iso}>`;

describe('alert details as sentences', () => {
  it.each(ALERT_TYPES.flatMap((type) => (['pt-BR', 'en'] as const).map((locale) => [type, locale] as const)))('says what a %s alert is about in %s, without placeholders or JSON', (type, locale) => {
    const sentences = alertSentences(EXAMPLES[type], translator(locale), when);
    const text = sentences.join(' ');
    expect(text).not.toMatch(/[{}]/);
    expect(text).not.toContain('(não informado)');
    expect(text).not.toContain('(not reported)');
    expect(sentences.length).toBe(type === 'SDK_SILENT' ? 1 : 2);
  });

  it('names the facts of each type', () => {
    const en = (type: AlertType, details?: Record<string, unknown>) =>
      alertSentences(details ? { ...EXAMPLES[type], details } : EXAMPLES[type], translator('en'), when).join(' ');
    expect(en('SCRIPT_INTEGRITY_MISMATCH')).toBe(
      'The content of the script https://cdn.example/pay.js changed: it is now sha384-new, and the authorized one is sha384-old (before: sha384-old). Seen on https://shop.example/checkout.',
    );
    expect(en('SCRIPT_INTEGRITY_MISMATCH', { src: 'https://cdn.example/pay.js', new_hash: 'sha384-served', refused_integrity: 'sha384-pinned', sri_refused: true })).toBe(
      'The browser refused to run https://cdn.example/pay.js: what is served (sha384-served) is not what the page pins (sha384-pinned). Seen on /checkout.',
    );
    expect(en('HEADER_CHANGED')).toContain("changed from script-src 'self' to *");
    expect(en('HEADER_CHANGED', { header: 'x-frame-options', change_type: 'removed', old_value: 'DENY', page: '/checkout' })).toContain('The header x-frame-options is gone from /checkout; it was DENY.');
    expect(en('CSP_VIOLATION')).toContain('blocked https://evil.example/x.js under the directive script-src');
    expect(en('MALICIOUS_SCRIPT')).toContain('from evil.example, is known to be malicious (content sha384-bad)');
    expect(en('SENSITIVE_FIELD_ACCESS')).toContain('read the field card-number through https://cdn.example/jquery.js.');
    expect(en('SENSITIVE_FIELD_ACCESS', { src: 'https://evil.example/skim.js', field: 'cvv' })).toContain('read the field cvv. Seen on');
    expect(en('UNEXPECTED_IFRAME')).toContain('An iframe from https://frame.example appeared, which is none of the expected origins (https://psp.example).');
    expect(en('UNEXPECTED_IFRAME', { origin: 'https://frame.example', expected: [] })).toContain('(none expected)');
    expect(en('RECIPIENT_MISMATCH')).toContain('A pix recipient on the page is none of the 2 pinned');
    expect(en('SDK_SILENT')).toBe('The SDK of shop.example has sent nothing since <2026-10-30T12:00:00.000Z>.');
    expect(en('NEW_CONNECTION')).toContain('to https://exfil.example, never seen on the store\'s pages, by beacon, from the script https://evil.example/skim.js, after the script https://evil.example/skim.js, not authorized, read the field cvv.');
    expect(en('NEW_CONNECTION', { origin: 'https://cdn.example', via: 'fetch', initiator: null, sensitive_read: null })).toContain('by fetch.');
  });

  it('says a detail the occurrence did not carry is unknown, in the reader’s language', () => {
    const sentences = alertSentences(alert('MALICIOUS_SCRIPT', null, { page: null }), translator('pt-BR'), when);
    expect(sentences).toEqual(['O script (não informado), de (não informado), é conhecido como malicioso (conteúdo (não informado)).']);
  });
});
