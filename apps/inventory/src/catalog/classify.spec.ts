import { classifyScript } from './classify';

const external = (host: string | null) => ({ host, inline: false });
const firstParty = { type: 'first_party', vendor_id: null, category: null };
const unknown = { type: 'unknown', vendor_id: null, category: null };

describe('classifyScript', () => {
  it.each([
    ['the store host itself', 'loja.exemplo.com.br', 'loja.exemplo.com.br'],
    ['a sibling under the registrable domain (com.br)', 'cdn.exemplo.com.br', 'loja.exemplo.com.br'],
    ['the registrable domain itself', 'exemplo.com.br', 'loja.exemplo.com.br'],
    ['a sibling under a co.uk registrable domain', 'static.shop.co.uk', 'www.shop.co.uk'],
    ['an upper-case host with a trailing dot', 'CDN.Exemplo.COM.BR.', 'loja.exemplo.com.br'],
    ['a punycode host of an IDN store', 'cdn.xn--caf-dma.com.br', 'loja.café.com.br'],
    ['a Unicode host of an IDN store', 'CDN.CAFÉ.com.br', 'loja.xn--caf-dma.com.br'],
    ['a store whose domain is a vendor domain', 'js.stripe.com', 'shop.stripe.com'],
  ])('first party: %s', (_case, host, store) => {
    expect(classifyScript(external(host), store)).toEqual(firstParty);
  });

  it.each([
    ['another domain under the same public suffix (com.br)', 'outra.com.br', 'loja.exemplo.com.br'],
    ['another co.uk domain', 'other.co.uk', 'www.shop.co.uk'],
    ['a lookalike ending in the store name', 'evilexemplo.com.br', 'loja.exemplo.com.br'],
    ['the store domain as a prefix of another domain', 'exemplo.com.br.evil.io', 'loja.exemplo.com.br'],
    ['another shop on the same platform (private suffix)', 'outra.myshopify.com', 'loja.myshopify.com'],
    ['an IPv4 address', '203.0.113.7', 'loja.exemplo.com.br'],
    ['an IPv6 address', '[2001:db8::1]', 'loja.exemplo.com.br'],
    ['a single-label host', 'localhost', 'loja.exemplo.com.br'],
    ['an external script without a host', null, 'loja.exemplo.com.br'],
    ['a lookalike of a vendor (suffix spoof)', 'stripe.com.evil.io', 'loja.exemplo.com.br'],
    ['a lookalike of a vendor (prefix spoof)', 'evilstripe.com', 'loja.exemplo.com.br'],
  ])('unknown: %s', (_case, host, store) => {
    expect(classifyScript(external(host), store)).toEqual(unknown);
  });

  it.each([
    ['js.stripe.com', 'stripe', 'payment'],
    ['JS.STRIPE.COM', 'stripe', 'payment'],
    ['www.googletagmanager.com', 'google_tag_manager', 'tag_manager'],
    ['sdk.mercadopago.com', 'mercado_pago', 'payment'],
    ['cdn.shopify.com', 'shopify', 'ecommerce_platform'],
  ])('known third party: %s → %s', (host, vendorId, category) => {
    expect(classifyScript(external(host), 'loja.exemplo.com.br')).toEqual({ type: 'known_third', vendor_id: vendorId, category });
  });

  it('counts inline scripts as first party, without a category', () => {
    expect(classifyScript({ host: null, inline: true }, 'loja.exemplo.com.br')).toEqual(firstParty);
  });

  it('counts a staging store\'s local scripts as first party, whatever the port, and nobody else\'s', () => {
    expect(classifyScript(external('localhost'), 'localhost:3000')).toEqual(firstParty);
    expect(classifyScript(external('[::1]'), '[::1]:8080')).toEqual(firstParty);
    expect(classifyScript(external('cdn.shop.test'), 'shop.test:3000')).toEqual(firstParty);
    expect(classifyScript(external('localhost'), 'loja.exemplo.com.br')).toMatchObject({ type: 'unknown' });
  });

  it('lets a store on a platform domain own its host only', () => {
    expect(classifyScript(external('loja.myshopify.com'), 'loja.myshopify.com')).toEqual(firstParty);
    expect(classifyScript(external('cdn.shopify.com'), 'loja.myshopify.com')).toMatchObject({ type: 'known_third', vendor_id: 'shopify' });
  });
});
