import { createHash } from 'node:crypto';
import { checkObservation, isSriHash } from './observations';

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
    ['a recipient hash that is not SHA-256 hex', { kind: 'payment_recipient', method: 'pix', key_hash: 'xyz' }],
    ['a __proto__ key (as JSON.parse makes it: an own property)', JSON.parse('{"kind":"script","src":"https://x.io/a.js","__proto__":{"x":1}}')],
    ['a constructor key in the headers', JSON.parse('{"kind":"headers","headers":{"constructor":"x"}}')],
    ['a blocked flag that is not a boolean', { kind: 'script', src: 'https://x.io/a.js', blocked: 'yes' }],
  ])('rejects %s', (_case, raw) => {
    expect(checkObservation(raw).ok).toBe(false);
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

  it('says why a prototype key is refused, and pollutes nothing', () => {
    expect(checkObservation(JSON.parse('{"kind":"iframe","origin":"https://a.io","__proto__":{"polluted":true}}'))).toEqual({
      ok: false,
      reason: 'prototype keys (__proto__, constructor, prototype) are not allowed',
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
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
});
