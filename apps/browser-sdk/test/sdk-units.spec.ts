import { createHash } from 'node:crypto';
import { hashRecipientKey as serviceHash } from '@pss/inventory/src/stores/recipient-key';
import { normalizeRecipientKey, refusedByCors, urlTag } from '@pss/sdk-contract';
import { pixKeyOf } from '../src/recipient-key';
import { gtmContainer, MAX_CALLERS, originOf, queryParam, scriptsOnStack } from '../src/stack';

const field = (id: string, value: string) => `${id}${String(value.length).padStart(2, '0')}${value}`;

describe('browser SDK pure parts', () => {
  it.each(['  Loja@Example.COM ', '+55 (11) 98765-4321', '123.456.789-09', '12.345.678/0001-95', '7d9f0335-8dcc-4054-9bf9-0dbd61d36906', 'chave aleatória'])(
    'normalizes recipient key %j exactly as the service hashes pinned ones',
    (key) => {
      expect(serviceHash(key)).toBe(createHash('sha256').update(normalizeRecipientKey(key)).digest('hex'));
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

  describe('the scripts on the stack of a field read', () => {
    const self = 'https://pss.example/sdk/v1/sdk.js';
    const page = 'https://shop.example/checkout?step=2#pay';
    const frames = (...urls: string[]) => ['Error', `    at get (${self}?key=pk:1:200)`, ...urls.map((url, i) => `    at f${i} (${url}:${i + 1}:7)`)].join('\n');

    it('names the reader first, from Chromium and Firefox stacks, skipping the SDK itself', () => {
      expect(scriptsOnStack(frames('https://cdn.evil.example/s.js?v=2', 'https://shop.example/checkout?step=2'), self, page)).toEqual(['https://cdn.evil.example/s.js?v=2']);
      const firefox = `get@${self}?key=pk:1:200\nsteal@https://cdn.evil.example/s.js:3:14\n`;
      expect(scriptsOnStack(firefox, self, page)).toEqual(['https://cdn.evil.example/s.js']);
      expect(scriptsOnStack(`Error\n    at get (${self}:1:1)`, self, page)).toEqual([]);
      expect(scriptsOnStack(undefined, self, page)).toEqual([]);
    });

    it('names the scripts that called a library, innermost first, each once: the skimmer behind jQuery', () => {
      const jquery = 'https://code.jquery.example/jquery-3.7.1.min.js';
      const skimmer = 'https://skim.example/s.js';
      const stack = frames(jquery, jquery, skimmer, jquery, 'https://shop.example/app.js', skimmer);
      expect(scriptsOnStack(stack, self, page)).toEqual([jquery, skimmer, 'https://shop.example/app.js']);
    });

    it("leaves the page's own inline code out as a caller, and keeps it as the reader", () => {
      const jquery = 'https://code.jquery.example/jquery.js';
      expect(scriptsOnStack(frames(jquery, 'https://shop.example/checkout?step=2'), self, page)).toEqual([jquery]);
      expect(scriptsOnStack(frames('https://shop.example/checkout?step=2', jquery), self, page)).toEqual(['https://shop.example/checkout?step=2', jquery]);
    });

    it(`stops after the reader and ${MAX_CALLERS} callers`, () => {
      const urls = Array.from({ length: 12 }, (_, i) => `https://lib${i}.example/l.js`);
      expect(scriptsOnStack(frames(...urls), self, page)).toEqual(urls.slice(0, 1 + MAX_CALLERS));
    });
  });

  it('reads a tag manager container id from its script URL', () => {
    expect(gtmContainer('https://www.googletagmanager.com/gtm.js?id=GTM-AB12CD&l=dataLayer')).toBe('GTM-AB12CD');
    expect(gtmContainer('https://www.googletagmanager.com/gtag/js?id=G-XYZ')).toBeUndefined();
  });

  it('reads the key of its own script URL as URLSearchParams would', () => {
    const src = 'https://pss.example/sdk/v1/sdk.js?v=1&key=pk_live_a%2Bb+c#frag';
    expect(queryParam(src, 'key')).toBe(new URL(src).searchParams.get('key'));
    expect(queryParam('https://pss.example/sdk.js?monkey=pk_live_x', 'key')).toBeNull();
    expect(queryParam('https://pss.example/sdk.js?key=%E0%A4%A', 'key')).toBeNull();
  });

  it('reads the origin of a DOM-normalized URL as the URL parser would', () => {
    for (const href of ['https://pay.example.com/frame?x=1', 'http://localhost:8080/a#b', 'https://user:pw@cdn.example/s.js', 'https://shop.example']) {
      expect(originOf(href)).toBe(new URL(href).origin);
    }
    expect(originOf('about:blank')).toBeUndefined();
    expect(originOf('javascript:void(0)')).toBeUndefined();
  });

  it('tags a URL with 53 stable bits, told apart from its neighbours', () => {
    const url = 'https://cdn.example/analytics.js?v=3';
    expect(urlTag(url)).toBe(urlTag(`${url}`));
    expect(urlTag(url)).toMatch(/^[0-9a-z]{1,11}$/);
    const tags = new Set(Array.from({ length: 10_000 }, (_, i) => urlTag(`https://cdn.example/s.js?v=${i}`)));
    expect(tags.size).toBe(10_000);
    expect(urlTag('https://cdn.example/a.js')).not.toBe(urlTag('https://cdn.example/b.js'));
  });

  it('spares the scripts the service saw refused their re-fetch, except on one page view in 20', () => {
    const refused = 'https://cdn.example/no-cors.js';
    const spared = refusedByCors([urlTag(refused)], 0.5);
    expect(spared(refused)).toBe(true);
    expect(spared('https://cdn.example/cors.js')).toBe(false);
    expect(refusedByCors([urlTag(refused)], 0.04)(refused)).toBe(false);
    expect(refusedByCors(undefined, 0.5)(refused)).toBe(false);
  });
});
