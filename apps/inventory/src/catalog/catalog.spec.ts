import { catalogVersion, findVendor, isThreatHost, threatListVersion, VENDOR_CATEGORIES } from './catalog';
import { HostSuffixIndex } from './host-suffix';
import threatData from './threat-hosts.json';
import vendorData from './vendors.json';

describe('vendor catalog', () => {
  it('is versioned and covers every category', () => {
    expect(catalogVersion).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(new Set(vendorData.vendors.map((vendor) => vendor.category))).toEqual(new Set(VENDOR_CATEGORIES));
  });

  it('names each vendor once, with a snake_case id', () => {
    const ids = vendorData.vendors.map((vendor) => vendor.vendor_id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(_[a-z0-9]+)*$/);
  });

  it.each([
    ['js.stripe.com', 'stripe', 'payment'],
    ['m.stripe.network', 'stripe', 'payment'],
    ['sdk.mercadopago.com', 'mercado_pago', 'payment'],
    ['stc.pagseguro.uol.com.br', 'pagseguro', 'payment'],
    ['assets.pagar.me', 'pagarme', 'payment'],
    ['www.paypal.com', 'paypal', 'payment'],
    ['js.braintreegateway.com', 'braintree', 'payment'],
    ['checkoutshopper-live.adyen.com', 'adyen', 'payment'],
    ['applepay.cdn-apple.com', 'apple_pay', 'payment'],
    ['pay.google.com', 'google_pay', 'payment'],
    ['www.googletagmanager.com', 'google_tag_manager', 'tag_manager'],
    ['tags.tiqcdn.com', 'tealium', 'tag_manager'],
    ['www.google-analytics.com', 'google_analytics', 'analytics'],
    ['static.hotjar.com', 'hotjar', 'analytics'],
    ['www.clarity.ms', 'microsoft_clarity', 'analytics'],
    ['cdn.jsdelivr.net', 'jsdelivr', 'cdn'],
    ['ajax.googleapis.com', 'google_hosted_libraries', 'cdn'],
    ['static.zdassets.com', 'zendesk', 'chat'],
    ['code.jivosite.com', 'jivochat', 'chat'],
    ['cdn.shopify.com', 'shopify', 'ecommerce_platform'],
    ['loja.vtexassets.com', 'vtex', 'ecommerce_platform'],
    ['cdn.awsli.com.br', 'loja_integrada', 'ecommerce_platform'],
    ['connect.facebook.net', 'meta_pixel', 'advertising'],
    ['device.clearsale.com.br', 'clearsale', 'fraud_prevention'],
    ['cdn.cookielaw.org', 'onetrust', 'consent'],
  ])('knows %s as %s (%s)', (host, vendorId, category) => {
    expect(findVendor(host)).toMatchObject({ vendor_id: vendorId, category });
  });

  it('prefers the most specific domain: cdnjs lives under cloudflare.com', () => {
    expect(findVendor('cdnjs.cloudflare.com')?.vendor_id).toBe('cdnjs');
    expect(findVendor('ajax.cloudflare.com')?.vendor_id).toBe('cloudflare');
    expect(findVendor('maps.googleapis.com')).toBeUndefined();
  });

  it.each([['stripe.com.evil.io'], ['evilstripe.com'], ['stripe.co'], ['googletagmanager.eu'], ['jsdellvr.com'], ['com'], ['myshopify.com']])(
    'does not take the lookalike %s for a vendor',
    (host) => {
      expect(findVendor(host)).toBeUndefined();
    },
  );

  it('matches hosts however they are spelled, and never IP addresses', () => {
    expect(findVendor('JS.Stripe.COM.')?.vendor_id).toBe('stripe');
    expect(findVendor('192.168.0.1')).toBeUndefined();
    expect(findVendor('[2606:4700::1111]')).toBeUndefined();
    expect(findVendor('')).toBeUndefined();
  });
});

describe('threat list', () => {
  it('is versioned and lists hosts in normalized form', () => {
    expect(threatListVersion).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(threatData.hosts.length).toBeGreaterThan(2);
  });

  it.each([['skimmer.test'], ['cdn.skimmer.test'], ['EVIL-CDN.example'], ['baways.com'], ['x.googletagmanager.eu'], ['neweggstats.com.']])(
    'knows %s',
    (host) => {
      expect(isThreatHost(host)).toBe(true);
    },
  );

  it.each([['notskimmer.test'], ['skimmer.test.example.com'], ['www.googletagmanager.com'], ['ba.com'], ['192.0.2.1'], ['']])(
    'does not flag %s',
    (host) => {
      expect(isThreatHost(host)).toBe(false);
    },
  );

  it('shares no host with the vendor catalog', () => {
    for (const { host } of threatData.hosts) expect([host, findVendor(host)]).toEqual([host, undefined]);
  });
});

describe('HostSuffixIndex', () => {
  it('refuses a domain listed twice', () => {
    expect(() => new HostSuffixIndex([['a.com', 1], ['a.com', 2]])).toThrow(/a\.com is listed twice/);
  });
});
