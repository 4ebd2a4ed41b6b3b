import { deciderSpec } from '@pss/testkit';
import { MAX_UNDECLARED_PAGES, pageHeadersDecider, type ObserveHeaders, type PageHeadersEvent } from './page-headers.decider';
import { diffHeaders, securityHeaders } from './security-headers';

const at = new Date('2026-05-01T10:00:00.000Z');
const observe = (headers: Record<string, string>, page = '/checkout'): ObserveHeaders => ({
  storeId: 's1',
  orgId: 'o1',
  page,
  pageUrl: `https://loja.example${page}`,
  headers,
  paymentPages: ['/checkout', '/pagamento/*'],
  at,
});
const baselined = (headers: Record<string, string>, page = '/checkout'): PageHeadersEvent => ({
  type: 'SecurityHeadersBaselined',
  data: { storeId: 's1', orgId: 'o1', page, headers, at: at.toISOString() },
});
const spec = deciderSpec(pageHeadersDecider);
const CSP = "script-src 'self'";

describe('page headers decider', () => {
  it('sets the baseline of a page on its first report, without a change', () => {
    spec.given([]).when(observe({ 'content-security-policy': CSP })).then([baselined({ 'content-security-policy': CSP })]);
  });

  it('records added, removed and changed headers against the baseline, per page', () => {
    const [changed] = pageHeadersDecider.decide(
      observe({ 'content-security-policy': "script-src 'self' https://evil.example", 'x-frame-options': 'DENY' }),
      pageHeadersDecider.evolve(pageHeadersDecider.initialState(), baselined({ 'content-security-policy': CSP, 'referrer-policy': 'no-referrer' })),
    );
    expect(changed.type).toBe('SecurityHeadersChanged');
    expect(changed.type === 'SecurityHeadersChanged' && changed.data.changes).toEqual([
      { name: 'content-security-policy', change_type: 'changed', old_value: CSP, new_value: "script-src 'self' https://evil.example" },
      { name: 'x-frame-options', change_type: 'added', old_value: null, new_value: 'DENY' },
      { name: 'referrer-policy', change_type: 'removed', old_value: 'no-referrer', new_value: null },
    ]);
    spec.given([baselined({ 'content-security-policy': CSP })]).when(observe({}, '/other')).then([baselined({}, '/other')]);
  });

  it('baselines at most MAX_UNDECLARED_PAGES paths beyond the payment pages, which are never capped', () => {
    const undeclared = Array.from({ length: MAX_UNDECLARED_PAGES }, (_, n) => baselined({}, `/junk/${n}`));
    spec.given(undeclared).when(observe({}, '/junk/new')).thenThrows('conflict', `already keeps the headers of ${MAX_UNDECLARED_PAGES} paths that are not its payment pages`);
    spec.given(undeclared).when(observe({}, '/pagamento/pix')).then([baselined({}, '/pagamento/pix')]);
    spec.given(undeclared).when(observe({ 'x-frame-options': 'DENY' }, '/junk/0')).then([
      { type: 'SecurityHeadersChanged', data: { storeId: 's1', orgId: 'o1', page: '/junk/0', pageUrl: 'https://loja.example/junk/0', changes: [{ name: 'x-frame-options', change_type: 'added', old_value: null, new_value: 'DENY' }], headers: { 'x-frame-options': 'DENY' }, at: at.toISOString() } },
    ]);
    // A path declared since stops counting against the cap.
    spec.given(undeclared).when({ ...observe({}, '/junk/new'), paymentPages: ['/junk/0'] }).then([baselined({}, '/junk/new')]);
  });

  it('records nothing when the headers are the same', () => {
    spec.given([baselined({ 'content-security-policy': CSP })]).when(observe({ 'content-security-policy': CSP })).thenNothingHappens();
  });
});

describe('security headers', () => {
  it('keeps only the security headers, white space folded', () => {
    expect(securityHeaders({ 'content-security-policy': "  script-src\n 'self' ", server: 'nginx', 'strict-transport-security': 'max-age=1' })).toEqual({
      'content-security-policy': "script-src 'self'",
      'strict-transport-security': 'max-age=1',
    });
  });

  it('finds no change between equal header sets', () => {
    expect(diffHeaders({ 'x-frame-options': 'DENY' }, { 'x-frame-options': 'DENY' })).toEqual([]);
  });
});
