import { normalizeDomain } from './domain-name';

describe('normalizeDomain', () => {
  it.each([
    ['loja.exemplo.com.br', 'loja.exemplo.com.br'],
    ['  Loja.Exemplo.COM.br  ', 'loja.exemplo.com.br'],
    ['https://loja.exemplo.com.br/checkout?step=2#pay', 'loja.exemplo.com.br'],
    ['http://user:pass@shop.example.com:8443/x', 'shop.example.com'],
    ['shop.example.com.', 'shop.example.com'],
    ['shop.example.com:443', 'shop.example.com'],
    ['café.example.com', 'xn--caf-dma.example.com'],
    ['https://münchen.de/', 'xn--mnchen-3ya.de'],
    ['xn--mnchen-3ya.de', 'xn--mnchen-3ya.de'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeDomain(input)).toBe(expected);
  });

  it.each([[''], ['   '], ['localhost'], ['192.168.0.1'], ['[::1]'], ['-bad.example.com'], ['bad-.example.com'], ['exa mple.com'], ['a..b.com'], [`${'a'.repeat(64)}.com`], ['http://']])(
    'refuses %j',
    (input) => {
      expect(normalizeDomain(input)).toBeUndefined();
    },
  );
});
