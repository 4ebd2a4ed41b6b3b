import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';
import { AuthenticationGuard } from '../auth/authentication.guard';
import { FastReads } from './fast-reads';

/**
 * The fast reads answer what the Nest route answers. Nest's own answer is reached through the same URL with
 * `org_id` naming the caller's own organization (the fast path leaves `org_id` to the guard; naming it needs
 * orgs:manage, as any org_id does), so both sides are
 * compared in one service; the guard's calls show which side answered.
 */
describe('fast reads (HTTP, embedded)', () => {
  let service: EmbeddedHarness;
  let guard: jest.SpyInstance;

  beforeAll(async () => {
    service = await EmbeddedHarness.start();
    guard = jest.spyOn(AuthenticationGuard.prototype, 'canActivate');
  });
  afterAll(async () => {
    guard.mockRestore();
    await service.close();
  });
  beforeEach(() => guard.mockClear());
  /** The guard's checks of the list routes (the harness's own calls, the OpenAPI document and writes, aside). */
  const guardedLists = () => guard.mock.calls.filter(([context]) => (context as { getHandler(): Function }).getHandler().name === 'list').length;

  it('serves GET /stores and GET /scripts under the routes Fastify knows them by', () => {
    expect(service.app.get(FastReads).urls.sort()).toEqual(['/api/v1/scripts', '/api/v1/stores']);
  });

  it('answers the same page, headers and all, without Nest’s guard', async () => {
    const { orgId, token } = await service.tenant(['stores:read', 'stores:write', 'scripts:read', 'orgs:manage']);
    for (let n = 0; n < 3; n += 1) await service.createStore(token);
    for (const path of ['/api/v1/stores', '/api/v1/stores?status=active&limit=2', '/api/v1/scripts?type=unknown']) {
      const fast = await service.request('GET', path, { token });
      expect(guardedLists()).toBe(0);
      const separator = path.includes('?') ? '&' : '?';
      const nest = await service.request('GET', `${path}${separator}org_id=${orgId}`, { token });
      expect(guardedLists()).toBe(1);
      guard.mockClear();
      expect(fast.status).toBe(200);
      expect(fast.body).toEqual(nest.body);
      expect(fast.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(fast.headers['content-type']).toBe(nest.headers['content-type']);
      expect(fast.headers['ratelimit-policy']).toBe(nest.headers['ratelimit-policy']);
      expect(fast.headers['ratelimit-limit']).toBe(nest.headers['ratelimit-limit']);
      expect(fast.headers['ratelimit-remaining']).toMatch(/^\d+$/);
      expect(fast.headers['x-request-id']).toEqual(expect.any(String));
    }
    const page = await service.request('GET', '/api/v1/stores?limit=2', { token });
    const next = await service.request('GET', `/api/v1/stores?limit=2&cursor=${page.body.next_cursor}`, { token });
    expect([...page.body.data, ...next.body.data]).toHaveLength(3);
    expect(guardedLists()).toBe(0);
  });

  it('leaves to Nest what it does not accept: no token, a missing scope, a refused query, a tampered cursor', async () => {
    const { token } = await service.tenant(['scripts:read']);
    expect((await service.request('GET', '/api/v1/stores')).status).toBe(401);
    expect((await service.request('GET', '/api/v1/stores', { token })).body.error.code).toBe('insufficient_scope');
    expect((await service.request('GET', '/api/v1/scripts?status=gone', { token })).body.error).toEqual({
      code: 'validation_error',
      message: expect.any(String),
      details: [expect.objectContaining({ field: 'status' })],
    });
    expect(guardedLists()).toBe(3);
    guard.mockClear();
    // A cursor is checked by the handler: the fast path answers its 400 in the exception filter's shape.
    const tampered = await service.request('GET', '/api/v1/scripts?cursor=bm9wZQ', { token });
    expect(tampered.status).toBe(400);
    expect(tampered.body).toEqual({ error: { code: 'validation_error', message: expect.any(String), details: [{ field: 'cursor', message: 'cursor is not a cursor this API returned' }] } });
    expect(guardedLists()).toBe(0);
  });

  it('stops answering a token the moment it is revoked', async () => {
    const { orgId, token, prefix } = await service.tenant(['stores:read']);
    expect((await service.request('GET', '/api/v1/stores', { token })).status).toBe(200);
    await service.ops('token.revoke', { org: orgId, prefix });
    const refused = await service.request('GET', '/api/v1/stores', { token });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: { code: 'unauthorized', message: 'Invalid token' } });
  });
});
