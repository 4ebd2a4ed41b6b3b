import { isLocalHost, isOnStoreDomain } from './store';

describe('a page on the store domain', () => {
  const production = { domain: 'loja.com.br', environment: 'production' as const };

  it('is the domain or a subdomain of it, on any port of a production store', () => {
    for (const page of ['https://loja.com.br/checkout', 'https://www.loja.com.br/checkout?x=1', 'https://pay.checkout.loja.com.br/', 'https://LOJA.com.br./a', 'http://loja.com.br:8080/a']) {
      expect([page, isOnStoreDomain(page, production)]).toEqual([page, true]);
    }
  });

  it('is not another host, a look-alike suffix or a local host of a production store', () => {
    for (const page of ['https://evil.example/checkout', 'https://evilloja.com.br/', 'https://loja.com.br.evil.example/', 'http://127.0.0.1:3000/', 'http://localhost/', 'not a url']) {
      expect([page, isOnStoreDomain(page, production)]).toEqual([page, false]);
    }
  });

  it('reads a leading www. of the domain as the site, but never a bare public suffix', () => {
    expect(isOnStoreDomain('https://loja.com.br/', { domain: 'www.loja.com.br' })).toBe(true);
    expect(isOnStoreDomain('https://checkout.loja.com.br/', { domain: 'www.loja.com.br' })).toBe(true);
    expect(isOnStoreDomain('https://other.com.br/', { domain: 'www.com.br' })).toBe(false);
  });

  it('holds a staging domain to its port, and takes pages from any local host in staging', () => {
    const staging = { domain: 'shop.example.com:8443', environment: 'staging' as const };
    expect(isOnStoreDomain('https://shop.example.com:8443/pay', staging)).toBe(true);
    expect(isOnStoreDomain('https://shop.example.com:9443/pay', staging)).toBe(false);
    for (const page of ['http://127.0.0.1:4000/checkout', 'http://localhost:3000/', 'http://cdn.widgets-vendor.test/', 'http://[::1]:80/']) {
      expect([page, isOnStoreDomain(page, staging)]).toEqual([page, true]);
    }
    expect(isOnStoreDomain('https://evil.example/', staging)).toBe(false);
  });

  it('knows the local hosts staging stores may use', () => {
    expect(['127.0.0.1', '[::1]', 'localhost', 'a.localhost', 'shop.test'].every(isLocalHost)).toBe(true);
    expect(['test', 'localhost.evil.example', '10.0.0.1', 'shop.example'].some(isLocalHost)).toBe(false);
  });
});
