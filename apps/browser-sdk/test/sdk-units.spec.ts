import { hashRecipientKey as serviceHash, normalizeRecipientKey as serviceNormalize } from '../../inventory/src/stores/recipient-key';
import { normalizeRecipientKey, pixKeyOf } from '../src/recipient-key';
import { callerUrl, gtmContainer } from '../src/stack';

const field = (id: string, value: string) => `${id}${String(value.length).padStart(2, '0')}${value}`;

describe('browser SDK pure parts', () => {
  it.each(['  Loja@Example.COM ', '+55 (11) 98765-4321', '123.456.789-09', '12.345.678/0001-95', '7d9f0335-8dcc-4054-9bf9-0dbd61d36906', 'chave aleatória'])(
    'normalizes recipient key %j exactly as the service hashes pinned ones',
    (key) => {
      expect(normalizeRecipientKey(key)).toBe(serviceNormalize(key));
    },
  );

  it('reads the Pix key of a BR Code (copia e cola), and nothing from other text', () => {
    const code = field('00', '01') + field('26', field('00', 'BR.GOV.BCB.PIX') + field('01', 'loja@example.com') + field('02', 'pedido 42')) + field('53', '986') + '6304ABCD';
    expect(pixKeyOf(code)).toBe('loja@example.com');
    expect(pixKeyOf(`  ${code.slice(0, 20)} ${code.slice(20)}\n`)).toBe('loja@example.com');
    expect(pixKeyOf('000201' + field('26', field('00', 'com.other') + field('01', 'x')))).toBeUndefined();
    expect(pixKeyOf('hello 000201')).toBeUndefined();
    expect(pixKeyOf('0002019999')).toBeUndefined();
    expect(serviceHash('loja@example.com')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('names the calling script from Chromium and Firefox stacks, skipping the SDK itself', () => {
    const self = 'https://pss.example/sdk/v1/sdk.js';
    const chromium = `Error\n    at get (${self}?key=pk:1:200)\n    at steal (https://cdn.evil.example/s.js?v=2:3:14)\n    at https://shop.example/checkout:10:5`;
    expect(callerUrl(chromium, self)).toBe('https://cdn.evil.example/s.js?v=2');
    const firefox = `get@${self}?key=pk:1:200\nsteal@https://cdn.evil.example/s.js:3:14\n`;
    expect(callerUrl(firefox, self)).toBe('https://cdn.evil.example/s.js');
    expect(callerUrl(`Error\n    at get (${self}:1:1)`, self)).toBeUndefined();
  });

  it('reads a tag manager container id from its script URL', () => {
    expect(gtmContainer('https://www.googletagmanager.com/gtm.js?id=GTM-AB12CD&l=dataLayer')).toBe('GTM-AB12CD');
    expect(gtmContainer('https://www.googletagmanager.com/gtag/js?id=G-XYZ')).toBeUndefined();
  });
});
