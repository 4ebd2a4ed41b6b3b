import type { AlertDocument } from '@pss/contracts';
import { newSession } from '../access/session';
import type { DashboardRequest } from '../http/dashboard-route';
import { translator, type Locale } from '../i18n/catalogue';
import { alertListPage, alertPage } from './alerts';

const now = new Date('2026-11-27T12:00:00.000Z');
const request = (locale: Locale): DashboardRequest => ({ locale, t: translator(locale), now, url: '/dashboard/alerts', params: {}, query: {}, form: {}, ip: '127.0.0.1', session: newSession(now) });
const store = { _id: 's1', name: 'Loja', domain: 'loja.example', timezone: 'America/Sao_Paulo' };

const alert: AlertDocument = {
  _id: 'a1',
  org_id: 'o1',
  store_id: 's1',
  type: 'MALICIOUS_SCRIPT',
  change_type: null,
  severity: 'critical',
  status: 'open',
  source: null,
  page: '/checkout',
  // What a page's SDK reported: a script address is the shopper's browser's word, never markup.
  details: { script_id: 'x', src: 'https://evil.example/"><script>alert(1)</script>', host: 'evil.example', hash: 'sha384-bad' },
  fingerprint: 'f',
  occurrences: 2,
  sessions_count: 2,
  first_seen_at: '2026-11-27T10:00:00.000Z',
  last_seen_at: '2026-11-27T11:00:00.000Z',
  resolved_at: null,
  resolved_by_label: null,
  note: 'checked <b>twice</b>',
  snoozed_until: null,
  auto_resolved: false,
  created_at: '2026-11-27T10:00:00.000Z',
};

describe('the alerts pages', () => {
  it('lists each alert as escaped sentences in the store’s zone, with the link named by its visible text', () => {
    const page = alertListPage(request('en'), { filter: { type: 'MALICIOUS_SCRIPT' }, stores: [store], alerts: [alert], nextCursor: 'c2', paged: false, refused: [] }).text;
    expect(page).toContain('https://evil.example/&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).not.toContain('<script>alert(1)');
    expect(page).toContain('aria-label="Malicious script Critical, of Nov 27, 2026, 7:00');
    expect(page).toContain('<option value="MALICIOUS_SCRIPT" selected>');
    expect(page).toContain('href="/dashboard/alerts?type=MALICIOUS_SCRIPT&amp;cursor=c2" rel="next"');
  });

  it('offers the note and the resolve button to whoever acts, and only the reading to a viewer', () => {
    const acting = alertPage(request('pt-BR'), { alert, store, acts: true }).text;
    expect(acting).toContain('name="_csrf"');
    expect(acting).toContain('<input type="hidden" name="status" value="resolved">');
    expect(acting).toContain('Resolver com esta nota');
    expect(acting).toContain('checked &lt;b&gt;twice&lt;/b&gt;</textarea>');
    const reading = alertPage(request('en'), { alert: { ...alert, status: 'resolved', resolved_at: now.toISOString(), resolved_by_label: 'user:ana@loja.example' }, store, acts: false }).text;
    expect(reading).not.toContain('<form method="post" action="/dashboard/alerts/a1"');
    expect(reading).toContain('Resolved by user:ana@loja.example on Nov 27, 2026, 9:00');
    expect(reading).toContain("Your role may read the alerts");
  });
});
