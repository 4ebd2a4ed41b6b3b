import type { TokenListItem } from '@pss/contracts';
import { translator, type Locale } from '../i18n/catalogue';
import type { DashboardRequest } from '../http/dashboard-route';
import { newSession } from '../access/session';
import { EMPTY_TOKEN_FORM } from '../tokens/token-form';
import { issuedTokenPage, newTokenPage, tokenListPage } from './tokens';

const now = new Date('2026-11-27T12:00:00.000Z');
const request = (locale: Locale): DashboardRequest => ({ locale, t: translator(locale), now, url: '/dashboard/tokens', params: {}, query: {}, form: {}, ip: '127.0.0.1', session: newSession(now) });

const token = (fields: Partial<TokenListItem>): TokenListItem => ({
  id: 't1',
  org_id: 'o1',
  name: 'CI',
  prefix: 'pss_tok_000000000000000000000001',
  scopes: ['stores:read'],
  status: 'Active',
  created_at: '2026-01-01T00:00:00.000Z',
  expires_at: null,
  revoked_at: null,
  last_used_at: null,
  ...fields,
});

describe('the API tokens pages', () => {
  it('lists each status in the reader’s language, offers revoke until a token is revoked, and escapes names', () => {
    const page = tokenListPage(request('pt-BR'), [
      token({ name: '<b>deploy</b>', status: 'Active' }),
      token({ prefix: 'pss_tok_000000000000000000000002', status: 'Expired', expires_at: '2026-06-01T00:00:00.000Z' }),
      token({ prefix: 'pss_tok_000000000000000000000003', status: 'Revoked', revoked_at: '2026-02-01T00:00:00.000Z' }),
    ]).text;
    expect(page).toContain('&lt;b&gt;deploy&lt;/b&gt;');
    expect(page).toMatch(/Ativo[\s\S]*Expirado[\s\S]*Revogado/);
    expect(page).toContain('sem expiração');
    expect(page).toContain('href="/dashboard/tokens/pss_tok_000000000000000000000001/revoke"');
    expect(page).toContain('href="/dashboard/tokens/pss_tok_000000000000000000000002/revoke"');
    expect(page).not.toContain('pss_tok_000000000000000000000003/revoke');
  });

  it("shows anyone but the owner the button and the spec's message, never a token", () => {
    const page = tokenListPage(request('en'), 'not-owner').text;
    expect(page).toContain('href="/dashboard/tokens/new"');
    expect(page).toContain('Only the organization owner can manage tokens.');
    expect(page).not.toContain('<table');
  });

  it('shows the token once; an answer without it (a redelivered command) says so and offers to revoke it', () => {
    const shown = issuedTokenPage(request('en'), { ...token({}), token: 'pss_tok_000000000000000000000001_secret' }).text;
    expect(shown).toContain('<code id="new-token">pss_tok_000000000000000000000001_secret</code>');

    const unshown = issuedTokenPage(request('en'), { ...token({ name: '<i>CI</i>' }), token: null }).text;
    expect(unshown).toContain('The token &quot;&lt;i&gt;CI&lt;/i&gt;&quot; was created but cannot be shown');
    expect(unshown).toContain('href="/dashboard/tokens/pss_tok_000000000000000000000001/revoke"');
    expect(unshown).not.toContain('new-token');
  });

  it('marks a field to fix and ties its message to it; every form carries the CSRF token', () => {
    const page = newTokenPage(request('en'), { ...EMPTY_TOKEN_FORM, name: 'x' }, { scopes: { key: 'tokens.error.scopes-required' } }).text;
    expect(page).toContain('<fieldset aria-describedby="scopes-error">');
    expect(page).toContain('<p class="error" id="scopes-error">Choose at least one scope.</p>');
    expect(page).toContain('<option value="90" selected>90 days</option>');
    expect(page).toMatch(/<input type="hidden" name="_csrf" value="[A-Za-z0-9_-]{43}">/);
  });
});
