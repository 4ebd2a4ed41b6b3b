import { createHash } from 'node:crypto';
import { checkObservation, isSriHash, keptHeaderValue, MAX_HEADER_VALUE_BYTES, MAX_NESTING_DEPTH } from './observations';

const sri = `sha384-${createHash('sha384').update('x').digest('base64')}`;

describe('SDK observations', () => {
  it.each([
    ['an external script', { kind: 'script', src: 'https://cdn.example.com/a.js', hash: sri, size_bytes: 10 }],
    ['an inline script with its hash', { kind: 'script', inline: true, hash: sri }],
    ['a script without a hash yet', { kind: 'script', src: 'https://cdn.example.com/a.js' }],
    ['headers', { kind: 'headers', headers: { 'Content-Security-Policy': "default-src 'self'" } }],
    ['a CSP violation', { kind: 'csp_violation', directive: 'script-src', blocked_uri: 'https://evil.example/x.js' }],
    ['a sensitive field access', { kind: 'sensitive_field_access', src: 'https://cdn.example.com/a.js', field: 'card_number' }],
    ['an iframe', { kind: 'iframe', origin: 'https://checkout.stripe.com' }],
    ['a payment recipient', { kind: 'payment_recipient', method: 'PIX', key_hash: 'A'.repeat(64) }],
    ['a connection with its initiator', { kind: 'connection', origin: 'https://api.psp.example', via: 'fetch', initiator: 'https://cdn.example.com/a.js' }],
    ['a WebSocket on a port', { kind: 'connection', origin: 'wss://ws.example:8443', via: 'websocket' }],
  ])('accepts %s', (_case, raw) => {
    expect(checkObservation(raw).ok).toBe(true);
  });

  it.each([
    ['not an object', 'script'],
    ['an unknown kind', { kind: 'keylogger' }],
    ['a javascript: src', { kind: 'script', src: 'javascript:alert(1)' }],
    ['an inline script with a src', { kind: 'script', inline: true, src: 'https://x.io/a.js', hash: sri }],
    ['an inline script without a hash', { kind: 'script', inline: true }],
    ['an md5 hash', { kind: 'script', src: 'https://x.io/a.js', hash: 'md5-abc' }],
    ['a sha384 hash of the wrong length', { kind: 'script', src: 'https://x.io/a.js', hash: 'sha384-abc=' }],
    ['a negative size', { kind: 'script', src: 'https://x.io/a.js', size_bytes: -1 }],
    ['an unknown hash_source', { kind: 'script', src: 'https://x.io/a.js', hash_source: 'guess' }],
    ['headers that are not strings', { kind: 'headers', headers: { a: 1 } }],
    ['a CSP violation without blocked_uri', { kind: 'csp_violation', directive: 'script-src' }],
    ['an iframe origin with a path', { kind: 'iframe', origin: 'https://checkout.stripe.com/pay' }],
    ['a recipient hash that is not SHA-256 hex', { kind: 'payment_recipient', method: 'pix', key_hash: 'xyz' }],
    ['a __proto__ key (as JSON.parse makes it: an own property)', JSON.parse('{"kind":"script","src":"https://x.io/a.js","__proto__":{"x":1}}')],
    ['a constructor key in the headers', JSON.parse('{"kind":"headers","headers":{"constructor":"x"}}')],
    ['a blocked flag that is not a boolean', { kind: 'script', src: 'https://x.io/a.js', blocked: 'yes' }],
    ['a connection origin with a path (a card number could ride in it)', { kind: 'connection', origin: 'https://evil.example/4111111111111111', via: 'fetch' }],
    ['a connection origin with a query', { kind: 'connection', origin: 'https://evil.example?c=4111', via: 'image' }],
    ['a connection origin with userinfo', { kind: 'connection', origin: 'https://4111@evil.example', via: 'fetch' }],
    ['a connection origin in upper case (not as browsers write it)', { kind: 'connection', origin: 'https://EVIL.example', via: 'fetch' }],
    ['a connection origin with its default port', { kind: 'connection', origin: 'https://evil.example:443', via: 'fetch' }],
    ['a javascript: connection', { kind: 'connection', origin: 'javascript:alert(1)', via: 'fetch' }],
    ['a connection origin longer than a DNS name allows', { kind: 'connection', origin: `https://${'a'.repeat(300)}.example`, via: 'fetch' }],
    ['an unknown via', { kind: 'connection', origin: 'https://evil.example', via: 'carrier-pigeon' }],
    ['an initiator that is no URL', { kind: 'connection', origin: 'https://evil.example', via: 'xhr', initiator: 'skimmer' }],
  ])('rejects %s', (_case, raw) => {
    expect(checkObservation(raw).ok).toBe(false);
  });

  it('says what a connection must be, and keeps its initiator as a script URL is kept', () => {
    expect(checkObservation({ kind: 'connection', origin: 'https://evil.example/x', via: 'fetch' })).toEqual({
      ok: false,
      reason: 'origin must be an http(s) or ws(s) origin (scheme://host[:port], as browsers write it) of at most 270 characters',
    });
    expect(checkObservation({ kind: 'connection', origin: 'https://evil.example', via: 'ftp' })).toEqual({ ok: false, reason: 'via must be one of fetch, xhr, beacon, image, form, websocket' });
    expect(checkObservation({ kind: 'connection', origin: 'https://evil.example', via: 'beacon', initiator: 'https://u:p@cdn.example/a.js#x', body: '4111' })).toEqual({
      ok: true,
      value: { kind: 'connection', origin: 'https://evil.example', via: 'beacon', initiator: 'https://cdn.example/a.js' },
    });
  });

  it('keeps only the fields of its kind, lower-cases header names and recipient hashes', () => {
    expect(checkObservation({ kind: 'script', src: 'https://x.io/a.js', injected: '<script>' })).toEqual({
      ok: true,
      value: { kind: 'script', inline: false, src: 'https://x.io/a.js' },
    });
    expect(checkObservation({ kind: 'headers', headers: { 'X-Frame-Options': ' DENY ' } })).toEqual({
      ok: true,
      value: { kind: 'headers', headers: { 'x-frame-options': 'DENY' } },
    });
    expect(checkObservation({ kind: 'payment_recipient', method: 'PIX', key_hash: 'AB'.repeat(32) })).toEqual({
      ok: true,
      value: { kind: 'payment_recipient', method: 'pix', key_hash: 'ab'.repeat(32) },
    });
  });

  it('keeps a header value of at most MAX_HEADER_VALUE_BYTES as it is, a longer one as its SHA-256, white space folded first', () => {
    const long = `script-src 'self' ${'https://cdn.example '.repeat(30)}`;
    const folded = long.replace(/\s+/g, ' ').trim();
    const hashed = `sha256:${createHash('sha256').update(folded).digest('hex')}`;
    expect(checkObservation({ kind: 'headers', headers: { 'Content-Security-Policy': long, 'X-Frame-Options': 'DENY' } })).toEqual({
      ok: true,
      value: { kind: 'headers', headers: { 'content-security-policy': hashed, 'x-frame-options': 'DENY' } },
    });
    expect(keptHeaderValue(long.replace(/ /g, '\n  '))).toBe(hashed); // another spelling of the same value: the same hash
    expect(keptHeaderValue('a'.repeat(MAX_HEADER_VALUE_BYTES))).toBe('a'.repeat(MAX_HEADER_VALUE_BYTES));
    expect(keptHeaderValue('é'.repeat(MAX_HEADER_VALUE_BYTES / 2 + 1))).toMatch(/^sha256:[0-9a-f]{64}$/); // bytes, not characters
  });

  it('says why a prototype key is refused, and pollutes nothing', () => {
    expect(checkObservation(JSON.parse('{"kind":"iframe","origin":"https://a.io","__proto__":{"polluted":true}}'))).toEqual({
      ok: false,
      reason: 'prototype keys (__proto__, constructor, prototype) are not allowed',
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps the integrity a browser refused the bytes for, only as the SDK can know it', () => {
    const pinned = `sha384-${createHash('sha384').update('pinned').digest('base64')}`;
    const refused = { kind: 'script', src: 'https://cdn.example.com/a.js', hash: sri, hash_source: 'sdk', integrity_attr: true, refused_integrity: pinned };
    expect(checkObservation(refused)).toEqual({ ok: true, value: { ...refused, inline: false } });
    const many = `${pinned} ${pinned} ${pinned} ${pinned} ${pinned}`;
    const sha256 = `sha256-${createHash('sha256').update('x').digest('base64')}`;
    const wrongShape = 'refused_integrity must be 1 to 4 SRI hashes of one algorithm, separated by spaces';
    const notSeen = "refused_integrity needs the SDK's own hash of an external script whose element has an integrity attribute";
    for (const [change, reason] of [
      [{ refused_integrity: 'yes' }, wrongShape],
      [{ refused_integrity: many }, wrongShape],
      [{ refused_integrity: `${pinned} ${sha256}` }, wrongShape],
      [{ refused_integrity: `${pinned}  ${pinned}` }, wrongShape],
      [{ hash: undefined }, notSeen],
      [{ hash_source: 'sri' }, notSeen],
      [{ integrity_attr: false }, notSeen],
      [{ inline: true, src: undefined }, notSeen],
      [{ refused_integrity: sri }, 'refused_integrity names the hash: the browser ran that content'],
    ] as const) {
      expect(checkObservation({ ...refused, ...change })).toEqual({ ok: false, reason });
    }
  });

  it('keeps the blocked flag of a script block mode stopped', () => {
    expect(checkObservation({ kind: 'script', src: 'https://x.io/a.js', blocked: true })).toEqual({
      ok: true,
      value: { kind: 'script', inline: false, src: 'https://x.io/a.js', blocked: true },
    });
  });

  it('knows SRI hashes by algorithm and digest length', () => {
    expect(isSriHash(sri)).toBe(true);
    expect(isSriHash(`sha256-${createHash('sha256').update('x').digest('base64')}`)).toBe(true);
    expect(isSriHash('sha256-short')).toBe(false);
  });

  describe('a script src', () => {
    const srcOf = (src: string) => {
      const checked = checkObservation({ kind: 'script', src });
      return checked.ok ? (checked.value as { src: string }).src : checked.reason;
    };

    it.each([
      ['control characters and a header injection', 'https://ctl.example/a\u0000b\r\nSet-Cookie: x=1.js', 'https://ctl.example/a%00bSet-Cookie:%20x=1.js'],
      ['a right-to-left override', 'https://ctl.example/\u202Egnp.js', 'https://ctl.example/%E2%80%AEgnp.js'],
      ['a lone surrogate', 'https://ctl.example/\ud800.js', 'https://ctl.example/%EF%BF%BD.js'],
      ['a leading space', ' https://ctl.example/a.js', 'https://ctl.example/a.js'],
      ['userinfo, dropped', 'https://cdn.trusted.example:secret@evil.example/a.js', 'https://evil.example/a.js'],
      ['a fragment, dropped', 'https://ctl.example/a.js#frag', 'https://ctl.example/a.js'],
      ['an upper-case scheme and host', 'HTTPS://CASE.EXAMPLE/E.js', 'https://case.example/E.js'],
      ['an IDN host, as punycode', 'https://müller.example/a.js', 'https://xn--mller-kva.example/a.js'],
      ['a default port and dot segments', 'https://ctl.example:443/js/../a.js', 'https://ctl.example/a.js'],
    ])('is kept as the URL parser writes it: %s', (_case, sent, kept) => {
      expect(srcOf(sent)).toBe(kept);
    });

    it('makes the spellings of one URL one script', () => {
      expect(new Set(['https://xn--mller-kva.example/a.js', 'https://müller.example/a.js', 'HTTPS://MÜLLER.example/a.js#x', 'https://u:p@müller.example/a.js'].map(srcOf)).size).toBe(1);
    });

    it.each([
      'https://cdn1.bench-shop.example.com/js/app-1.js',
      'https://www.googletagmanager.com/gtm.js?id=GTM-ABC123',
      'https://sdk.mercadopago.com/js/v2',
      'http://localhost:8080/a.js?v=1&x=%20y',
      'https://xn--mller-kva.example/a%20b.js',
      'http://[::1]/a.js',
    ])('keeps a URL already in that form byte for byte (script ids are derived from it): %s', (src) => {
      expect(srcOf(src)).toBe(src);
    });

    it('still refuses what is no http(s) URL, or too long once written out', () => {
      expect(srcOf('javascript:alert(1)')).toBe('src must be an http(s) URL');
      // 2,000 characters sent, 2,000 × 9 once percent-encoded
      expect(srcOf(`https://a.io/${'\u202E'.repeat(2_000)}`)).toBe('src must be an http(s) URL');
    });

    it('is written the same way when a script reads a card field', () => {
      expect(checkObservation({ kind: 'sensitive_field_access', src: 'HTTPS://CDN.EXAMPLE/a.js#x', field: 'card_number' })).toEqual({
        ok: true,
        value: { kind: 'sensitive_field_access', src: 'https://cdn.example/a.js', field: 'card_number' },
      });
    });
  });

  describe("a card-field read's callers", () => {
    const read = (callers: unknown) => checkObservation({ kind: 'sensitive_field_access', src: 'https://cdn.example/jquery.js', field: 'cvv', callers });

    it('keeps them as scripts are kept, each once, without the reader, in their order', () => {
      expect(read(['HTTPS://SKIM.EXAMPLE/s.js#x', 'https://cdn.example/jquery.js', 'https://skim.example/s.js', 'https://shop.example/app.js'])).toEqual({
        ok: true,
        value: { kind: 'sensitive_field_access', src: 'https://cdn.example/jquery.js', field: 'cvv', callers: ['https://skim.example/s.js', 'https://shop.example/app.js'] },
      });
    });

    it('leaves the field out when none is left', () => {
      expect(read([])).toEqual({ ok: true, value: { kind: 'sensitive_field_access', src: 'https://cdn.example/jquery.js', field: 'cvv' } });
      expect(read(['https://cdn.example/jquery.js#again'])).toEqual({ ok: true, value: { kind: 'sensitive_field_access', src: 'https://cdn.example/jquery.js', field: 'cvv' } });
    });

    it.each([
      ['not a list', 'https://skim.example/s.js'],
      ['more than 8', Array.from({ length: 9 }, (_, i) => `https://skim.example/${i}.js`)],
      ['an entry that is no http(s) URL', ['https://skim.example/s.js', 'javascript:alert(1)']],
      ['an entry that is no string', [42]],
    ])('refuses the whole read for %s', (_case, callers) => {
      expect(read(callers)).toEqual({ ok: false, reason: 'callers must be a list of at most 8 http(s) URLs' });
    });
  });

  describe('an iframe origin', () => {
    it.each(['https://checkout.stripe.com', 'http://localhost:8080', 'https://xn--mller-kva.example', 'http://[::1]:3000', 'null'])('accepts %s', (origin) => {
      expect(checkObservation({ kind: 'iframe', origin })).toEqual({ ok: true, value: { kind: 'iframe', origin } });
    });

    it.each([
      'https://checkout.stripe.com/',
      'https://checkout.stripe.com/pay',
      'HTTPS://CHECKOUT.STRIPE.COM',
      'https://checkout.stripe.com:443',
      'https://user@checkout.stripe.com',
      'https://müller.example',
      ' https://checkout.stripe.com',
      'https://checkout.stripe.com\u202E',
      'javascript:alert(1)',
      'data:text/html,x',
      'checkout.stripe.com',
      'NULL',
    ])('refuses %j: origins are as browsers serialize them', (origin) => {
      expect(checkObservation({ kind: 'iframe', origin })).toEqual({
        ok: false,
        reason: 'origin must be an http(s) origin (scheme://host[:port], as browsers write it) or null',
      });
    });
  });

  it('says an observation nested too deeply is that, not a prototype key', () => {
    const nested = (depth: number): unknown => (depth === 0 ? 'x' : { a: nested(depth - 1) });
    expect(checkObservation({ kind: 'iframe', origin: 'null', extra: nested(MAX_NESTING_DEPTH) }).ok).toBe(true);
    expect(checkObservation({ kind: 'iframe', origin: 'null', extra: nested(MAX_NESTING_DEPTH + 1) })).toEqual({
      ok: false,
      reason: `observation is nested too deeply (more than ${MAX_NESTING_DEPTH} levels)`,
    });
  });

  it('says which CSP violation field is wrong', () => {
    expect(checkObservation({ kind: 'csp_violation', blocked_uri: 'inline' })).toEqual({ ok: false, reason: 'directive must be a string of 1 to 256 characters' });
    expect(checkObservation({ kind: 'csp_violation', directive: 'script-src', blocked_uri: `https://a.io/${'q'.repeat(2_048)}` })).toEqual({
      ok: false,
      reason: 'blocked_uri must be a string of 1 to 2048 characters',
    });
  });
});
