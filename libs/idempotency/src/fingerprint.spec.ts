import { requestFingerprint } from './fingerprint';

describe('request fingerprint', () => {
  const request = { method: 'POST', url: '/api/v1/stores', scope: 'org-1', body: { name: 'Shop', domains: ['a.example', 'b.example'] } };

  it('does not depend on the order of object keys, at any depth', () => {
    const reordered = { ...request, body: { domains: ['a.example', 'b.example'], name: 'Shop' } };
    expect(requestFingerprint(reordered)).toBe(requestFingerprint(request));
  });

  it('is a SHA-256 in hex', () => {
    expect(requestFingerprint(request)).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['the method', { method: 'PUT' }],
    ['the URL', { url: '/api/v1/stores/2' }],
    ['the scope', { scope: 'org-2' }],
    ['the body', { body: { name: 'Shop', domains: ['b.example', 'a.example'] } }],
    ['a missing body', { body: undefined }],
  ])('changes with %s', (_what, change) => {
    expect(requestFingerprint({ ...request, ...change })).not.toBe(requestFingerprint(request));
  });

  it('treats a missing body as null', () => {
    expect(requestFingerprint({ ...request, body: undefined })).toBe(requestFingerprint({ ...request, body: null }));
  });
});
