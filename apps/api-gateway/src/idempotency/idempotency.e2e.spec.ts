import { join } from 'node:path';
import Database from 'better-sqlite3';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';

describe('Idempotency-Key on real routes (HTTP, embedded)', () => {
  const suite = embeddedSuite();

  const post = (url: string, token: string, key: string | undefined, body?: unknown) =>
    suite.service.request('POST', url, { token, body, headers: key === undefined ? {} : { 'idempotency-key': key } });

  it('replays POST /stores for the same key and body, with Idempotent-Replayed, creating one store', async () => {
    const { token } = await suite.service.tenant(['stores:read', 'stores:write'], { plan: 'enterprise' });
    const body = { domain: `replay-${Date.now()}.example.com` };
    const first = await post('/api/v1/stores', token, 'create-1', body);
    const again = await post('/api/v1/stores', token, 'create-1', { ...body });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body).toEqual(first.body);
    expect((await suite.service.request('GET', '/api/v1/stores', { token })).body.data).toHaveLength(1);
  });

  it('answers 422 idempotency_key_reused for the same key with another body', async () => {
    const { token } = await suite.service.tenant(['stores:write'], { plan: 'enterprise' });
    await post('/api/v1/stores', token, 'k', { domain: `a-${Date.now()}.example.com` });
    const reused = await post('/api/v1/stores', token, 'k', { domain: `b-${Date.now()}.example.com` });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('idempotency_key_reused');
  });

  it('replays a rotation: the same new key, not a second rotation', async () => {
    const { token } = await suite.service.tenant(['stores:write'], { plan: 'enterprise' });
    const store = (await post('/api/v1/stores', token, undefined, { domain: `rot-${Date.now()}.example.com` })).body;
    const first = await post(`/api/v1/stores/${store.id}/rotate-key`, token, 'rotate-1');
    const again = await post(`/api/v1/stores/${store.id}/rotate-key`, token, 'rotate-1');
    expect(again.body.sdk_key).toBe(first.body.sdk_key);
    // the id in upper case names the same store: the same request, replayed
    const upper = await post(`/api/v1/stores/${store.id.toUpperCase()}/rotate-key`, token, 'rotate-1');
    expect([upper.status, upper.headers['idempotent-replayed'], upper.body.sdk_key]).toEqual([200, 'true', first.body.sdk_key]);
  });

  it('keeps keys apart per organization', async () => {
    const one = await suite.service.tenant(['stores:write'], { plan: 'enterprise' });
    const two = await suite.service.tenant(['stores:write'], { plan: 'enterprise' });
    const a = await post('/api/v1/stores', one.token, 'same-key', { domain: `one-${Date.now()}.example.com` });
    const b = await post('/api/v1/stores', two.token, 'same-key', { domain: `two-${Date.now()}.example.com` });
    expect(b.status).toBe(201);
    expect(b.body.id).not.toBe(a.body.id);
  });

  it.each([[''], ['x'.repeat(256)]])('answers 400 to a key of length %#', async (key) => {
    const { token } = await suite.service.tenant(['stores:write']);
    const answer = await post('/api/v1/stores', token, key, { domain: `len-${Date.now()}.example.com` });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details[0].field).toBe('Idempotency-Key');
  });
});

describe('Idempotency-Key on a create that shows a secret once (HTTP, embedded)', () => {
  const suite = embeddedSuite();

  it('replays the webhook create with its secret, and keeps the stored response sealed', async () => {
    const { token } = await suite.service.tenant(['webhooks:manage']);
    const body = { url: 'https://hooks.example.com/pss' };
    const headers = { 'idempotency-key': 'webhook-1' };
    const first = await suite.service.request('POST', '/api/v1/webhooks', { token, body, headers });
    const again = await suite.service.request('POST', '/api/v1/webhooks', { token, body, headers });
    expect(first.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.secret).toBe(first.body.secret);

    const database = new Database(join(suite.service.config.dataDir, 'events.sqlite'), { readonly: true });
    try {
      const stored = JSON.stringify(database.prepare('SELECT * FROM idempotency_keys').all());
      expect(stored).toContain('webhook-1');
      expect(stored).not.toContain(first.body.secret);
    } finally {
      database.close();
    }
  });
});
