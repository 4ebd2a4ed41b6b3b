import { OpsRegistry } from '@pss/ops';
import { READ_STORE, type ReadCollection, type ReadStore } from '@pss/read-store';
import { eventually } from '@pss/testkit';
import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';

const WRITES = new Set(['insertOne', 'upsert', 'updateOne', 'updateMany', 'deleteMany']);

/**
 * Holds every write to the named read-model collections until released, as a projection far behind on a busy
 * replica would: what the command handlers answer must not depend on it.
 */
class HeldReadModels {
  private held = new Set<string>();
  private release: () => void = () => undefined;
  private gate: Promise<void> = Promise.resolve();

  constructor(readStore: ReadStore) {
    const collection = readStore.collection.bind(readStore);
    jest.spyOn(readStore, 'collection').mockImplementation((name: string) => this.wrap(collection(name)) as ReturnType<ReadStore['collection']>);
  }

  hold(collections: string[]): void {
    this.held = new Set(collections);
    this.gate = new Promise((resolve) => (this.release = resolve));
  }

  releaseAll(): void {
    this.held = new Set();
    this.release();
  }

  private wrap<T extends ReadCollection>(target: T): T {
    return new Proxy(target, {
      get: (object, property, receiver) => {
        const value = Reflect.get(object, property, receiver);
        if (typeof property !== 'string' || !WRITES.has(property) || typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          if (this.held.has(object.name)) await this.gate;
          return value.apply(object, args);
        };
      },
    });
  }
}

/**
 * Issue 13, defect 3: a write that succeeded is answered with its resource, never 503 or 404, however far behind
 * this process's read models are; the wait for them ends within the command's deadline.
 */
describe('writes answered while the read models are held back (embedded)', () => {
  let service: EmbeddedHarness;
  let held: HeldReadModels;
  let token: string;
  let orgId: string;
  let storeId: string;

  beforeAll(async () => {
    // The wait for the read models ends after 200 ms here; the answer must not need them.
    service = await EmbeddedHarness.start({ env: { READ_YOUR_WRITES_TIMEOUT_MS: '200' } });
    ({ token, orgId } = await service.tenant(['stores:read', 'stores:write', 'scripts:read', 'rules:write', 'policies:read', 'policies:write', 'pages:write', 'webhooks:manage', 'orgs:manage']));
    storeId = (await service.createStore(token)).id;
    held = new HeldReadModels(service.app.get<ReadStore>(READ_STORE));
  });
  afterEach(() => held.releaseAll());
  afterAll(() => service.close());

  it('creates and updates a rule', async () => {
    held.hold(['rules']);

    const created = await service.request('POST', '/api/v1/rules', { token, body: { store_id: storeId, type: 'block', target: 'domain', value: 'skimmer.example.net', label: 'skimmer' } });
    const updated = await service.request('PATCH', `/api/v1/rules/${created.body.id}`, { token, body: { label: 'known skimmer' } });

    expect(created).toMatchObject({ status: 201, body: { store_id: storeId, value: 'skimmer.example.net', label: 'skimmer', active: true } });
    expect(updated).toMatchObject({ status: 200, body: { id: created.body.id, label: 'known skimmer' } });
    held.releaseAll();
    await eventually(() => service.request('GET', `/api/v1/rules?store_id=${storeId}`, { token }), (listed) => listed.body.data.some((rule: { label: string }) => rule.label === 'known skimmer'));
  });

  it('creates and updates a store, adds a payment page', async () => {
    held.hold(['stores', 'payment_pages']);

    const created = await service.request('POST', '/api/v1/stores', { token, body: { domain: 'held-back.com.br', name: 'Held', payment_pages: [{ url_pattern: '/checkout', payment_methods: ['pix'] }] } });
    const updated = await service.request('PATCH', `/api/v1/stores/${created.body.id}`, { token, body: { name: 'Held back' } });
    const paged = await service.request('POST', `/api/v1/stores/${created.body.id}/pages`, { token, body: { payment_pages: [{ url_pattern: '/pay/*', payment_methods: ['card'] }] } });

    expect(created).toMatchObject({ status: 201, body: { domain: 'held-back.com.br', name: 'Held', pages: [{ url_pattern: '/checkout', payment_methods: ['pix'] }] } });
    expect(created.body.snippets).toBeDefined();
    expect(updated).toMatchObject({ status: 200, body: { id: created.body.id, name: 'Held back' } });
    expect(paged).toMatchObject({ status: 200, body: { data: [{ url_pattern: '/pay/*', payment_methods: ['card'] }] } });
  });

  it('creates and updates a policy', async () => {
    held.hold(['policies']);

    const created = await service.request('POST', '/api/v1/policies', { token, body: { name: 'Held policy', action: 'needs_review' } });
    const updated = await service.request('PATCH', `/api/v1/policies/${created.body.id}`, { token, body: { priority: 7 } });

    expect(created).toMatchObject({ status: 201, body: { name: 'Held policy', action: 'needs_review' } });
    expect(updated).toMatchObject({ status: 200, body: { id: created.body.id, name: 'Held policy', priority: 7 } });
  });

  it('creates and updates a webhook, with its secret', async () => {
    held.hold(['channels']);

    const created = await service.request('POST', '/api/v1/webhooks', { token, body: { url: 'https://hooks.example.com/held' } });
    const updated = await service.request('PATCH', `/api/v1/webhooks/${created.body.id}`, { token, body: { name: 'held hook' } });

    expect(created).toMatchObject({ status: 201, body: { url: 'https://hooks.example.com/held', has_secret: true, secret: expect.stringMatching(/^whsec_/) } });
    expect(updated).toMatchObject({ status: 200, body: { id: created.body.id, name: 'held hook' } });
  });

  it('creates an organization', async () => {
    held.hold(['organizations']);

    const created = await service.request('POST', '/api/v1/organizations', { token, body: { name: 'Held Brasil', owner_email: 'owner@held.example' } });

    expect(created).toMatchObject({ status: 201, body: { name: 'Held Brasil', owner_invite: expect.any(String) } });
  });

  it('issues an API token (admin CLI)', async () => {
    held.hold(['api_tokens']);

    const issued = await service.app.get(OpsRegistry).run('token.create', { org: orgId, name: 'held', scopes: 'stores:read' });

    expect(issued).toMatchObject({ token: expect.any(String), name: 'held', scopes: ['stores:read'] });
  });
});

/** Waits for the read models end within the command's deadline, also in handlers that do not pass it themselves. */
describe('read-your-writes waits inside the command deadline (embedded)', () => {
  let service: EmbeddedHarness;
  let held: HeldReadModels;
  let token: string;

  beforeAll(async () => {
    // The read-your-writes wait alone would outlast the gateway's wait for the reply.
    service = await EmbeddedHarness.start({ env: { READ_YOUR_WRITES_TIMEOUT_MS: '60000', BUS_REQUEST_TIMEOUT_MS: '2000' } });
    ({ token } = await service.tenant(['stores:read', 'stores:write', 'webhooks:manage', 'rules:write', 'scripts:read', 'scripts:review']));
    held = new HeldReadModels(service.app.get<ReadStore>(READ_STORE));
  });
  afterEach(() => held.releaseAll());
  afterAll(() => service.close());

  it('answers an update whose read model is held back before the gateway gives up', async () => {
    const store = await service.createStore(token);
    const hook = await service.request('POST', '/api/v1/webhooks', { token, body: { url: 'https://hooks.example.com/deadline' } });
    held.hold(['stores', 'channels']);

    const store2 = await service.request('PATCH', `/api/v1/stores/${store.id}`, { token, body: { name: 'Renamed' } });
    const hook2 = await service.request('PATCH', `/api/v1/webhooks/${hook.body.id}`, { token, body: { name: 'renamed' } });

    expect(store2).toMatchObject({ status: 200, body: { name: 'Renamed' } });
    expect(hook2).toMatchObject({ status: 200, body: { name: 'renamed' } });
  });

  // Each handler passes its command's deadline on to the repository (command-meta.ts): one route per handler.
  it('answers a rule update, a script decision and an SDK batch with a new script before the gateway gives up', async () => {
    const store = await service.createStore(token);
    const rule = await service.request('POST', '/api/v1/rules', { token, body: { store_id: store.id, type: 'block', target: 'domain', value: 'held.example.net' } });
    await service.reportSdk(store.sdk_key, [{ kind: 'script', src: 'https://cdn.held.example.com/a.js' }]);
    const [script] = (await service.request('GET', `/api/v1/scripts?store_id=${store.id}`, { token })).body.data;
    held.hold(['rules', 'scripts']);

    const rule2 = await service.request('PATCH', `/api/v1/rules/${rule.body.id}`, { token, body: { label: 'held' } });
    const authorized = await service.request('POST', `/api/v1/scripts/${script.id}/authorize`, { token, body: { justification: 'Ours' } });
    const batch = await service.reportSdk(store.sdk_key, [{ kind: 'script', src: 'https://cdn.held.example.com/b.js' }]);

    expect(rule2).toMatchObject({ status: 200, body: { label: 'held' } });
    expect(authorized.status).toBe(200);
    expect(batch.status).toBe(202);
  });
});
