import { DAY_MS } from '@pss/kernel';
import { ManualClock } from '@pss/testkit';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';

const REALM_HEADER = /^Bearer realm="[^"]+"$/;

describe('authentication and scopes (HTTP, embedded)', () => {
  const clock = new ManualClock('2026-02-01T08:00:00.000Z');
  const suite = embeddedSuite({ clock });

  const expectUnauthorized = (answer: { status: number; headers: Record<string, unknown>; body: any }, message: string) => {
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error: { code: 'unauthorized', message } });
    expect(answer.headers['www-authenticate']).toMatch(REALM_HEADER);
  };

  it('lists no stores for a fresh organization', async () => {
    const { token } = await suite.service.tenant(['stores:read']);
    const answer = await suite.service.request('GET', '/api/v1/stores', { token });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: [], next_cursor: null });
  });

  it.each([
    ['no Authorization header', undefined],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['Bearer without a token', 'Bearer '],
    ['a token of the wrong length', `Bearer pss_tok_${'a'.repeat(24)}_${'b'.repeat(31)}`],
    ['a token with characters outside the format', `Bearer pss_tok_${'A'.repeat(24)}_${'b'.repeat(32)}`],
    ['a token without the literal prefix', `Bearer xx_live_${'a'.repeat(24)}_${'b'.repeat(32)}`],
  ])('answers 401 "Missing or malformed bearer token" to %s', async (_case, authorization) => {
    const answer = await suite.service.request('GET', '/api/v1/stores', { headers: authorization ? { authorization } : {} });
    expectUnauthorized(answer, 'Missing or malformed bearer token');
  });

  it('answers 401 "Invalid token" to a well-formed token that does not exist', async () => {
    const answer = await suite.service.request('GET', '/api/v1/stores', { token: `pss_tok_${'0'.repeat(24)}_${'0'.repeat(32)}` });
    expectUnauthorized(answer, 'Invalid token');
  });

  it('answers 401 "Invalid token" to a token whose prefix exists but whose secret half differs', async () => {
    const { token } = await suite.service.tenant(['stores:read']);
    const forged = `${token.slice(0, 33)}${token[33] === 'a' ? 'b' : 'a'}${token.slice(34)}`;
    expectUnauthorized(await suite.service.request('GET', '/api/v1/stores', { token: forged }), 'Invalid token');
    // Also once the real token has passed the hash check against the record the forged one is looked up by.
    expect((await suite.service.request('GET', '/api/v1/stores', { token })).status).toBe(200);
    expectUnauthorized(await suite.service.request('GET', '/api/v1/stores', { token: forged }), 'Invalid token');
    expect((await suite.service.request('GET', '/api/v1/stores', { token })).status).toBe(200);
  });

  it('answers 401 "Invalid token" at once after revocation, and the token stays listed as Revoked', async () => {
    const { orgId, token, prefix } = await suite.service.tenant(['stores:read']);
    expect((await suite.service.request('GET', '/api/v1/stores', { token })).status).toBe(200);
    await suite.service.ops('token.revoke', { org: orgId, prefix });
    expectUnauthorized(await suite.service.request('GET', '/api/v1/stores', { token }), 'Invalid token');
    const listed = await suite.service.ops('token.list', { org: orgId });
    expect(listed.data).toEqual([expect.objectContaining({ prefix, status: 'Revoked' })]);
  });

  it('answers 401 "Token expired" once the validity period has ended', async () => {
    const org = await suite.service.createOrganization();
    const issued = await suite.service.ops('token.create', { org: org.id, name: 'short', scopes: 'stores:read', 'expires-days': '30' });
    expect((await suite.service.request('GET', '/api/v1/stores', { token: issued.token })).status).toBe(200);
    clock.advance(30 * DAY_MS);
    expectUnauthorized(await suite.service.request('GET', '/api/v1/stores', { token: issued.token }), 'Token expired');
    const listed = await suite.service.ops('token.list', { org: org.id });
    expect(listed.data[0].status).toBe('Expired');
  });

  it('answers 403 insufficient_scope when the token lacks the exact scope (no hierarchy)', async () => {
    const { token } = await suite.service.tenant(['stores:write', 'scripts:read']);
    const answer = await suite.service.request('GET', '/api/v1/stores', { token });
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('insufficient_scope');
  });

  it('never returns the token hash or the token in listings', async () => {
    const { orgId, token } = await suite.service.tenant(['stores:read']);
    const listed = JSON.stringify(await suite.service.ops('token.list', { org: orgId }));
    expect(listed).not.toContain(token);
    expect(listed).not.toMatch(/"hash"/);
  });

  it('scopes every read to the token organization', async () => {
    const first = await suite.service.tenant(['stores:read']);
    const second = await suite.service.tenant(['stores:read']);
    expect(first.orgId).not.toBe(second.orgId);
    expect((await suite.service.request('GET', '/api/v1/stores', { token: second.token })).body.data).toEqual([]);
  });

  it('serves health, readiness and the OpenAPI document without a token', async () => {
    expect((await suite.service.request('GET', '/health')).body).toEqual({ status: 'ok' });
    expect((await suite.service.request('GET', '/ready')).body).toEqual({ status: 'ready' });
    const openapi = await suite.service.request('GET', '/api/v1/openapi.json');
    expect(openapi.status).toBe(200);
    expect(openapi.body.openapi).toBe('3.1.0');
    expect(openapi.body.paths['/stores'].get['x-required-scope']).toBe('stores:read');
  });

  it('answers unknown routes with the error shape', async () => {
    const answer = await suite.service.request('GET', '/api/v1/nowhere');
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('not_found');
  });

  it('rejects bad list parameters with one detail per field', async () => {
    const { token } = await suite.service.tenant(['stores:read']);
    const answer = await suite.service.request('GET', '/api/v1/stores?limit=0&cursor=!!', { token });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('validation_error');
    expect(answer.body.error.details.map((d: { field: string }) => d.field)).toContain('limit');
    const tampered = await suite.service.request('GET', `/api/v1/stores?cursor=${Buffer.from('{"x":1}').toString('base64url')}`, { token });
    expect(tampered.status).toBe(400);
    expect(tampered.body.error.details[0].field).toBe('cursor');
    // Well-formed JSON of the right shape, but not a position the API could have written for that list.
    for (const path of ['/api/v1/stores', '/api/v1/scripts', '/api/v1/alerts', '/api/v1/rules', '/api/v1/policies']) {
      const { token: reader } = await suite.service.tenant(['stores:read', 'scripts:read', 'alerts:read', 'policies:read']);
      const edited = await suite.service.request('GET', `${path}?cursor=${Buffer.from('["a","b"]').toString('base64url')}`, { token: reader });
      expect([path, edited.status, edited.body.error?.details[0].field]).toEqual([path, 400, 'cursor']);
    }
  });
});
