import type { PolicyDocument } from '@pss/contracts';
import { decidingPolicy, hostMatches, justificationFrom, policyApplies } from './evaluate';
import { matchesGlob } from './glob';
import type { ScriptFacts } from './script-facts';

const facts = (change: Partial<ScriptFacts> = {}): ScriptFacts => ({
  inline: false,
  host: 'js.stripe.com',
  path: '/v3/checkout.js',
  type: 'known_third',
  category: 'payment',
  vendorId: 'stripe',
  vendorName: 'Stripe',
  sizeBytes: 20 * 1024,
  integrityAttr: true,
  sensitiveFieldAccess: false,
  threat: false,
  sameOrigin: false,
  storeProvider: false,
  prevalence: 0.4,
  storeDomain: 'loja.example.com.br',
  ...change,
});
const inline = facts({ inline: true, host: null, path: null, type: 'first_party', category: null, vendorId: null, vendorName: null });
const firstParty = facts({ host: 'cdn.loja.example.com.br', path: '/static/app.js', type: 'first_party', category: null, vendorId: null, vendorName: null });
const unknownCategory = facts({ type: 'unknown', category: null, vendorId: null, vendorName: null, host: 'w.widgets.io' });

let ids = 0;
const policy = (change: Partial<PolicyDocument> = {}): PolicyDocument => ({
  _id: `p${String(++ids).padStart(3, '0')}`,
  org_id: 'org',
  store_id: null,
  name: 'Policy',
  description: null,
  version: 1,
  active: true,
  mode: 'auto',
  priority: 100,
  match: {},
  conditions: {},
  action: 'authorize',
  justification_template: null,
  expires_days: null,
  is_default: false,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...change,
});

describe('policy match', () => {
  it.each([
    ['an empty match matches every script', {}, facts(), true],
    ['an empty match matches inline scripts', {}, inline, true],
    ['origin any', { origin: 'any' }, inline, true],
    ['origin inline: inline script', { origin: 'inline' }, inline, true],
    ['origin inline: external script', { origin: 'inline' }, facts(), false],
    ['origin first_party: first-party script', { origin: 'first_party' }, firstParty, true],
    ['origin first_party: inline script (not external)', { origin: 'first_party' }, inline, false],
    ['origin first_party: third party', { origin: 'first_party' }, facts(), false],
    ['origin third_party: known third', { origin: 'third_party' }, facts(), true],
    ['origin third_party: unknown script', { origin: 'third_party' }, unknownCategory, true],
    ['origin third_party: first party', { origin: 'third_party' }, firstParty, false],
    ['an unknown origin matches nothing', { origin: 'elsewhere' }, facts(), false],
    ['domain equal', { domain: ['js.stripe.com'] }, facts(), true],
    ['domain parent matches subdomain', { domain: ['stripe.com'] }, facts(), true],
    ['domain any value of the array', { domain: ['paypal.com', 'stripe.com'] }, facts(), true],
    ['domain lookalike does not match', { domain: ['tripe.com'] }, facts(), false],
    ['domain *. matches subdomains', { domain: ['*.stripe.com'] }, facts(), true],
    ['domain *. does not match the apex', { domain: ['*.stripe.com'] }, facts({ host: 'stripe.com' }), false],
    ['domain never matches inline scripts', { domain: ['stripe.com'] }, inline, false],
    ['path_glob * within a segment', { path_glob: ['/v3/*.js'] }, facts(), true],
    ['path_glob * does not cross segments', { path_glob: ['/*.js'] }, facts(), false],
    ['path_glob ** crosses segments', { path_glob: ['/**.js'] }, facts(), true],
    ['path_glob never matches inline scripts', { path_glob: ['/**'] }, inline, false],
    ['category from the catalog', { category: ['payment'] }, facts(), true],
    ['category of a script the catalog does not know', { category: ['payment'] }, unknownCategory, false],
    ['vendor_id', { vendor_id: ['stripe', 'adyen'] }, facts(), true],
    ['vendor_id other vendor', { vendor_id: ['adyen'] }, facts(), false],
    ['every key must hold', { category: ['payment'], domain: ['paypal.com'] }, facts(), false],
  ])('%s', (_case, match, script, expected) => {
    expect(policyApplies({ match: match as PolicyDocument['match'], conditions: {} }, script)).toBe(expected);
  });
});

describe('policy conditions', () => {
  it.each([
    ['no conditions hold', {}, facts(), true],
    ['same_origin true on the store origin', { same_origin: true }, facts({ sameOrigin: true }), true],
    ['same_origin true elsewhere', { same_origin: true }, facts(), false],
    ['same_origin false elsewhere', { same_origin: false }, facts(), true],
    ['prevalence_min reached', { prevalence_min: 0.4 }, facts(), true],
    ['prevalence_min not reached', { prevalence_min: 0.5 }, facts(), false],
    ['prevalence_min 0 always holds', { prevalence_min: 0 }, facts({ prevalence: 0 }), true],
    ['prevalence_min against a prevalence not measured does not hold', { prevalence_min: 0 }, facts({ prevalence: null }), false],
    ['no_sensitive_field_access, none', { no_sensitive_field_access: true }, facts(), true],
    ['no_sensitive_field_access, touched', { no_sensitive_field_access: true }, facts({ sensitiveFieldAccess: true }), false],
    ['not_in_threat_list, clean host', { not_in_threat_list: true }, facts(), true],
    ['not_in_threat_list, threat', { not_in_threat_list: true }, facts({ threat: true }), false],
    ['in_threat_list, threat', { in_threat_list: true }, facts({ threat: true }), true],
    ['in_threat_list, clean host', { in_threat_list: true }, facts(), false],
    ['store_provider', { store_provider: true }, facts({ storeProvider: true }), true],
    ['store_provider, another vendor', { store_provider: true }, facts(), false],
    ['max_size_kb, smaller', { max_size_kb: 20 }, facts(), true],
    ['max_size_kb, bigger', { max_size_kb: 19.9 }, facts(), false],
    ['max_size_kb, size unknown', { max_size_kb: 100 }, facts({ sizeBytes: null }), false],
    ['has_integrity_attr', { has_integrity_attr: true }, facts(), true],
    ['has_integrity_attr, unknown counts as without', { has_integrity_attr: true }, facts({ integrityAttr: null }), false],
    ['all conditions must hold', { has_integrity_attr: true, max_size_kb: 1 }, facts(), false],
  ])('%s', (_case, conditions, script, expected) => {
    expect(policyApplies({ match: {}, conditions: conditions as PolicyDocument['conditions'] }, script)).toBe(expected);
  });
});

describe('deciding policy', () => {
  it('lets the lowest priority that applies decide, skipping inactive ones', () => {
    const block = policy({ priority: 10, conditions: { in_threat_list: true }, action: 'block' });
    const inactive = policy({ priority: 20, active: false, action: 'block' });
    const payment = policy({ priority: 200, match: { category: ['payment'] }, action: 'authorize' });
    const review = policy({ priority: 1000, action: 'needs_review' });
    expect(decidingPolicy([review, payment, inactive, block], facts())?.policy).toBe(payment);
    expect(decidingPolicy([review, payment, inactive, block], facts({ threat: true }))?.policy).toBe(block);
    expect(decidingPolicy([review, payment], unknownCategory)?.action).toBe('needs_review');
    expect(decidingPolicy([payment], unknownCategory)).toBeUndefined();
  });

  it("prefers the store's own policy on a tie", () => {
    const organization = policy({ priority: 50, action: 'needs_review' });
    const store = policy({ priority: 50, store_id: 'store-1', action: 'authorize' });
    expect(decidingPolicy([organization, store], facts())?.policy).toBe(store);
  });
});

describe('justification template', () => {
  it('fills {domain}, {vendor} and {path}', () => {
    expect(justificationFrom('Payment provider {vendor} on {domain} ({path})', 'p', facts())).toBe(
      'Payment provider Stripe on js.stripe.com (/v3/checkout.js)',
    );
  });

  it('uses the store domain and a plain word for inline scripts, and names the policy without a template', () => {
    expect(justificationFrom('{domain}: {path} by {vendor}', 'p', inline)).toBe('loja.example.com.br: inline script by unknown vendor');
    expect(justificationFrom(null, 'Review everything', facts())).toBe('Decided by policy "Review everything"');
  });
});

describe('globs and hosts', () => {
  it('treats regex characters in globs literally', () => {
    expect(matchesGlob('/a+b/c.js', '/a+b/*.js')).toBe(true);
    expect(matchesGlob('/aab/c.js', '/a+b/*.js')).toBe(false);
    expect(matchesGlob('/v1/x.js', '/v?/x.js')).toBe(true);
  });

  it('matches hosts case-insensitively on the policy side', () => {
    expect(hostMatches('js.stripe.com', 'Stripe.COM')).toBe(true);
  });
});
