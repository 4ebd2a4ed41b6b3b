import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';
import { ManualClock, sri } from '@pss/testkit';

/**
 * The keyed sdk.js follows a store's decisions on the facts that announce them (ReplicaEvents), not on a timer:
 * the service's clock never moves here, so a rebuild on a timer would serve the first script for ever.
 */
describe('a change of a store reaches its keyed sdk.js at once (HTTP, embedded)', () => {
  let service: EmbeddedHarness;
  let token: string;
  const api = (method: string, path: string, body?: unknown) => service.request(method, `/api/v1${path}`, { token, body });
  const pageConfigIn = async (key: string) => {
    const text = (await service.request('GET', `/sdk/v1/sdk.js?key=${key}`)).text;
    return JSON.parse(/const __pssConfig=(.*);\n/.exec(text)![1]);
  };

  beforeAll(async () => {
    service = await EmbeddedHarness.start({ clock: new ManualClock('2026-06-01T12:00:00.000Z') });
    ({ token } = await service.tenant(['stores:read', 'stores:write', 'scripts:read', 'scripts:review', 'rules:write'], { plan: 'enterprise' }));
  });
  afterAll(() => service.close());

  it('carries a new block rule, its deactivation and deletion, a mode, developer mode and an authorization on the next request', async () => {
    const store = await service.createStore(token);
    const first = await pageConfigIn(store.sdk_key);
    expect(first.rules.block).toEqual([]);
    expect(first.config.mode).toBe('monitor');

    const rule = await api('POST', '/rules', { store_id: store.id, type: 'block', target: 'domain', value: 'skimmer.example' });
    expect(rule.status).toBe(201);
    expect((await pageConfigIn(store.sdk_key)).rules.block).toEqual([{ id: rule.body.id, target: 'domain', value: 'skimmer.example' }]);
    expect((await api('PATCH', `/rules/${rule.body.id}`, { active: false })).status).toBe(200);
    expect((await pageConfigIn(store.sdk_key)).rules.block).toEqual([]);
    expect((await api('PATCH', `/rules/${rule.body.id}`, { active: true })).status).toBe(200);
    expect((await pageConfigIn(store.sdk_key)).rules.block).toHaveLength(1);
    expect((await api('DELETE', `/rules/${rule.body.id}`)).status).toBe(200);
    expect((await pageConfigIn(store.sdk_key)).rules.block).toEqual([]);

    expect((await api('PATCH', `/stores/${store.id}`, { mode: 'block' })).status).toBe(200);
    expect((await pageConfigIn(store.sdk_key)).config.mode).toBe('block');
    expect((await api('PATCH', `/stores/${store.id}`, { developer_mode: true })).status).toBe(200);
    expect((await pageConfigIn(store.sdk_key)).paused).toBe(true);
    expect((await api('PATCH', `/stores/${store.id}`, { developer_mode: false })).status).toBe(200);

    const src = `https://cdn.${store.domain}/widget.js`;
    expect((await service.reportSdk(store.sdk_key, [{ kind: 'script', src, hash: sri('widget') }])).status).toBe(202);
    const script = (await api('GET', `/scripts?store_id=${store.id}`)).body.data[0];
    expect((await api('POST', `/scripts/${script.id}/authorize`, { justification: 'Payment widget' })).status).toBe(200);
    expect((await pageConfigIn(store.sdk_key)).authorized_urls).toEqual([src]);
  });
});
