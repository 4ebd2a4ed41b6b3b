import { looksLikeLink } from './organization-name';

describe('organization names that look like links', () => {
  it.each([
    'https://pay.example',
    'Acme hxxps://x',
    'Acme ftp://files',
    'www.acme',
    'Acme WWW.Support',
    'acme.com',
    'Pay at acme-billing.com.br now',
    'Acme.Store',
    'login.xn--p1ai',
    'mail me: pay@evil.shop',
    'ｗｗｗ．acme',
    'acme．ｃｏｍ',
    'evil。com',
    'evil｡com',
    'St.Louis',
  ])('refuses %j', (name) => {
    expect(looksLikeLink(name)).toBe(true);
  });

  it.each(['Acme Checkout', 'Lojas Americanas S.A.', 'A.B.C. Comércio Ltda', 'St. Louis Shop', 'Loja 2.0', 'Acme Inc.', 'Café & Cia', '支付商店', 'R$ 1.000,00 Store'])(
    'keeps %j',
    (name) => {
      expect(looksLikeLink(name)).toBe(false);
    },
  );
});
