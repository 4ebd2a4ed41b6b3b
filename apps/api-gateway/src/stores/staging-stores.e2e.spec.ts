import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';

const STAGING_HINT =
  'to try it on localhost, 127.0.0.1, [::1], *.localhost or *.test (ports allowed), create a staging store: "environment": "staging"';

/** A shop trying the service before going live: a staging store on localhost, marked so wherever it shows. */
describe('staging stores (HTTP, embedded)', () => {
  const suite = embeddedSuite({ scopes: ['stores:read', 'stores:write', 'alerts:read'], organization: { plan: 'enterprise', 'billing-mode': 'processor' } });

  const createStore = (body: Record<string, unknown>, as = suite.token) => suite.service.request('POST', '/api/v1/stores', { token: as, body });

  it('refuses localhost in a production store, saying to create a staging store', async () => {
    const answer = await createStore({ domain: 'http://localhost:3000/checkout' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details).toEqual([
      { field: 'domain', message: `domain is a local host: a production store needs the shop's public host name, e.g. shop.example.com; ${STAGING_HINT}` },
    ]);

    const origins = await createStore({ domain: 'loja-staging-refused.example.com', expected_iframe_origins: ['http://127.0.0.1:4000'] });
    expect(origins.status).toBe(400);
    expect(origins.body.error.details).toEqual([
      { field: 'expected_iframe_origins', message: `http://127.0.0.1:4000 is a local origin: a production store expects public ones; ${STAGING_HINT}` },
    ]);
  });

  it('takes localhost with its port and local iframe origins in a staging store, and marks it staging everywhere', async () => {
    const created = await createStore({
      domain: 'http://LocalHost:3000/checkout',
      environment: 'staging',
      expected_iframe_origins: ['http://localhost:4000/', '*.psp.test', 'https://[::1]:8443'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ domain: 'localhost:3000', environment: 'staging', safe_slug: 'localhost-3000' });
    expect(created.body.sdk_config.expected_iframe_origins).toEqual(['http://localhost:4000', 'psp.test', 'https://[::1]:8443']);

    const read = await suite.get(`/stores/${created.body.id}`);
    expect(read.body.environment).toBe('staging');
    const production = await createStore({ domain: 'loja-staging-beside.example.com' });
    expect(production.body.environment).toBe('production');
    const listed = await suite.service.request('GET', '/api/v1/stores', { token: suite.token });
    expect(listed.body.data.map((store: { id: string; environment: string }) => [store.id, store.environment])).toEqual([
      [production.body.id, 'production'],
      [created.body.id, 'staging'],
    ]);

    const patched = await suite.call('PATCH', `/stores/${created.body.id}`, { expected_iframe_origins: ['http://127.0.0.1:5000'] });
    expect(patched.status).toBe(200);
    expect(patched.body.sdk_config.expected_iframe_origins).toEqual(['http://127.0.0.1:5000']);
    const moved = await suite.call('PATCH', `/stores/${created.body.id}`, { environment: 'production' });
    expect(moved.status).toBe(400);
    expect(moved.body.error.details.map((detail: { field: string }) => detail.field)).toEqual(['environment']);
  });

  it('keeps a staging domain unique within the organization only, so every shop can try localhost', async () => {
    const first = await createStore({ domain: 'localhost:3100', environment: 'staging' });
    expect(first.status).toBe(201);
    const again = await createStore({ domain: 'http://localhost:3100', environment: 'staging' });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('A staging store with the domain localhost:3100 already exists in this organization');
    const other = await suite.service.tenant(['stores:write'], { plan: 'enterprise', 'billing-mode': 'processor' });
    expect((await createStore({ domain: 'localhost:3100', environment: 'staging' }, other.token)).status).toBe(201);
  });

  it('refuses an environment that is neither production nor staging', async () => {
    const answer = await createStore({ domain: 'loja-staging-odd.example.com', environment: 'test' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details).toEqual([{ field: 'environment', message: 'environment must be one of the following values: production, staging' }]);
  });

  it('matches an expected origin exactly, port included: another local port is an unexpected iframe', async () => {
    const store = (await createStore({ domain: 'localhost:3200', environment: 'staging', expected_iframe_origins: ['http://localhost:4000'] })).body;
    const page = { page_url: 'http://localhost:3200/checkout' };
    expect((await suite.service.reportSdk(store.sdk_key, [{ kind: 'iframe', origin: 'http://localhost:4000' }], page)).status).toBe(202);
    expect((await suite.service.reportSdk(store.sdk_key, [{ kind: 'iframe', origin: 'http://localhost:4001' }], page)).status).toBe(202);
    const alerts = await alertsUntil(store.id, (list) => list.some((alert) => alert.type === 'UNEXPECTED_IFRAME'));
    expect(alerts.filter((alert) => alert.type === 'UNEXPECTED_IFRAME').map((alert) => alert.details.origin)).toEqual(['http://localhost:4001']);
  });

  type Alert = { type: string; details: { origin?: string } };
  async function alertsUntil(storeId: string, done: (alerts: Alert[]) => boolean): Promise<Alert[]> {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const alerts = (await suite.get(`/alerts?store_id=${storeId}`)).body.data as Alert[];
      if (done(alerts)) return alerts;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('no such alerts in time');
  }
});
