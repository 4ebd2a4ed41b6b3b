import fc from 'fast-check';
import { checkObservation, isHttpUrl, normalizedHttpUrl } from './observations';

/** What isHttpUrl was before its fast path: every string goes through `new URL`. The fast path must agree with it. */
function parsedAsHttpUrl(value: unknown, max = 2048): boolean {
  if (typeof value !== 'string' || value.length === 0 || value.length > max) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

const schemes = fc.constantFrom(
  'https://', 'http://', 'HTTPS://', 'HtTp://', 'https:', 'https:/', 'https:///', 'http:\\\\', 'https:\\/', ' https://', '\thttp://',
  'javascript:', 'JavaScript://', 'data:text/javascript,', 'ftp://', 'file:///', 'blob:https://', 'ws://', 'httpss://', 'htp://', '',
);
const userinfos = fc.constantFrom('', '', '', 'user@', 'user:pass@', '@', ':@', 'a%40b@', 'é@', 'a b@');
/** Host label pieces: plain ASCII (the fast path), and all that makes `new URL` refuse or rewrite a host. */
const labelUnits = fc.constantFrom(
  'a', 'Z', 'q', '0', '9', '-', 'x', 'n', 'xn--', 'Xn--', 'é', 'ß', 'ü', 'ａ', 'Ａ', '\u3002', '\uFF0E', '%41', '%2e', '%', '_', '*', '!',
  ' ', '\t', '\n', '\u0000', '\u00AD', '\u200D', '\\', '@', '[', ']', '^', '|', '\uD800', '💳',
);
const labels = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: labelUnits, maxLength: 8 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'example', 'com', 'cdn1', 'my-shop', '-a', 'a-', 'a--b', '', 'xn--nxasmq6b', 'xn--a', 'xn--', 'XN--ZCA', '0x1f', '0X', '0x', '255', '256', '09',
      '4294967296', 'localhost', 'müller', 'ＥＸＡＭＰＬＥ', '127.0.0.1', '[::1]', '[::1', '[v1.x]', 'a'.repeat(64), 'a'.repeat(300),
    ),
  },
);
const hosts = fc.array(labels, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('.'));
const ports = fc.constantFrom('', '', '', ':', ':0', ':80', ':443', ':8443', ':9999', ':65535', ':65536', ':99999', ':00000080', ':8a', ':-1', ': 80');
const tails = fc.oneof(
  fc.constantFrom('', '/', '/a.js', '/js/app-1.js?v=2#x', '?q=1', '#x', '\\a.js', '/ a', '/%zz', '/\u0000', '/\uD800', '/é', ' ', '\n', '/a\tb', '.'),
  fc.string({ unit: 'binary', maxLength: 16 }).map((rest) => `/${rest}`),
  fc.string({ unit: 'binary', maxLength: 16 }),
);
/** Pads some URLs to around the 2,048-character limit, which the fast path must keep. */
const padding = fc.constantFrom(0, 0, 0, 1_900, 1_990, 2_000, 2_010, 2_020, 5_000).map((length) => '/' + 'p'.repeat(length));

const urlLike = fc
  .tuple(schemes, userinfos, hosts, ports, tails, padding)
  .map(([scheme, userinfo, host, port, tail, pad]) => `${scheme}${userinfo}${host}${port}${pad.length > 1 ? pad : ''}${tail}`);
const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 40 }));

describe('isHttpUrl', () => {
  it('decides as `new URL` does for URL-like strings and arbitrary text', () => {
    fc.assert(
      fc.property(fc.oneof({ weight: 4, arbitrary: urlLike }, { weight: 1, arbitrary: anyText }), (value) => {
        expect(isHttpUrl(value)).toBe(parsedAsHttpUrl(value));
      }),
      { numRuns: 20_000 },
    );
  });

  it.each([
    ['a plain URL', 'https://cdn1.bench-shop.example.com/js/app-1.js', true],
    ['an upper-case scheme and host', 'HTTPS://CDN.EXAMPLE.COM', true],
    ['a port of four digits', 'http://a.io:8080/x', true],
    ['the highest port', 'http://a.io:65535', true],
    ['a port over 65535', 'http://a.io:65536', false],
    ['userinfo', 'https://user:pass@a.io/x', true],
    ['a backslash for a slash', 'https:\\\\a.io\\x', true],
    ['an IDN host', 'https://müller.example/a.js', true],
    ['valid punycode', 'https://xn--mller-kva.example', true],
    ['invalid punycode', 'https://xn--a.example', false],
    ['an IPv4 address', 'http://127.0.0.1/x', true],
    ['a last label that is a number but no IPv4 address', 'https://a.b.999', false],
    ['a last label in hex', 'https://a.0x1g', true],
    ['a percent-encoded host', 'https://%61.io', true],
    ['a forbidden host code point', 'https://a^b.io', false],
    ['leading whitespace', ' https://a.io', true],
    ['a tab in the host', 'https://a\t.io', true],
    ['a javascript: URL', 'javascript:alert(1)', false],
    ['a data: URL', 'data:text/javascript,alert(1)', false],
    ['a URL of 2,048 characters', `https://a.io/${'p'.repeat(2_048 - 'https://a.io/'.length)}`, true],
    ['a URL of 2,049 characters', `https://a.io/${'p'.repeat(2_049 - 'https://a.io/'.length)}`, false],
  ])('decides %s as `new URL` does', (_case, value, accepted) => {
    expect(parsedAsHttpUrl(value)).toBe(accepted);
    expect(isHttpUrl(value)).toBe(accepted);
  });

});

/** What normalizedHttpUrl is without its fast path: every string through `new URL`, then userinfo and fragment dropped. */
function writtenByParser(value: unknown, max = 2048): string | undefined {
  if (!parsedAsHttpUrl(value, max)) return undefined;
  const url = new URL(value as string);
  url.username = '';
  url.password = '';
  url.hash = '';
  return url.href.length <= max ? url.href : undefined;
}

/** URLs shaped like the fast path's, each character of their path and query any printable ASCII or a few others. */
const pathUnits = fc.constantFrom(...Array.from({ length: 95 }, (_, code) => String.fromCharCode(32 + code)), '/', '/', '.', '..', '%2e', '%2E', 'é', '\u202E', '\t', '\u0000');
const lookAlikes = fc
  .tuple(
    fc.constantFrom('https://', 'http://'),
    fc.constantFrom('cdn.example.com', 'a.io', 'my-shop.example', 'x', 'localhost', 'a1.b2.c3'),
    fc.constantFrom('', ':8080', ':443', ':80'),
    fc.string({ unit: pathUnits, maxLength: 24 }),
    fc.option(fc.string({ unit: pathUnits, maxLength: 24 })),
  )
  .map(([scheme, host, port, path, query]) => `${scheme}${host}${port}/${path}${query === null ? '' : `?${query}`}`);

describe('normalizedHttpUrl', () => {
  it('writes a URL as `new URL` does, without userinfo and fragment, for URL-like strings and arbitrary text', () => {
    fc.assert(
      fc.property(fc.oneof({ weight: 4, arbitrary: urlLike }, { weight: 1, arbitrary: anyText }, { weight: 4, arbitrary: lookAlikes }), (value) => {
        expect(normalizedHttpUrl(value)).toBe(writtenByParser(value));
      }),
      { numRuns: 20_000 },
    );
  });

  it('gives back a URL it wrote byte for byte, so that an id derived from it never changes', () => {
    fc.assert(
      fc.property(fc.oneof(urlLike, lookAlikes), (value) => {
        const written = normalizedHttpUrl(value);
        if (written !== undefined) expect(normalizedHttpUrl(written)).toBe(written);
      }),
      { numRuns: 5_000 },
    );
  });

  it('is what a script observation keeps, and refuses it for the same reason as before', () => {
    fc.assert(
      fc.property(urlLike, (src) => {
        const written = writtenByParser(src);
        expect(checkObservation({ kind: 'script', src })).toEqual(
          written === undefined ? { ok: false, reason: 'src must be an http(s) URL' } : { ok: true, value: { kind: 'script', inline: false, src: written } },
        );
      }),
      { numRuns: 2_000 },
    );
  });
});
