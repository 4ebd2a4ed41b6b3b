import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';
import { isDeepStrictEqual } from 'node:util';
import { eventually, ManualClock, sri } from '@pss/testkit';
import type { PageConfig } from './sdk-config';

/**
 * The keyed sdk.js follows a store's decisions on the facts that announce them (ReplicaEvents), not on a timer:
 * the service's clock never moves here, so a rebuild on a timer would serve the first script for ever. The facts
 * travel the bus after the 200, so each change is awaited for at most the 2 s the SDK's docs promise.
 */
describe('a change of a store reaches its keyed sdk.js at once (HTTP, embedded)', () => {
  let service: EmbeddedHarness;
  let token: string;
  const api = (method: string, path: string, body?: unknown) => service.request(method, `/api/v1${path}`, { token, body });
  const pageConfigIn = async (key: string): Promise<PageConfig> => {
    const text = (await service.request('GET', `/sdk/v1/sdk.js?key=${key}`)).text;
    return JSON.parse(/const __pssConfig=(.*);\n/.exec(text)![1]);
  };
  /** The part `read` of the keyed script's config becomes `expected` within 2 s. */
  const settles = async (key: string, read: (config: PageConfig) => unknown, expected: unknown) => {
    const last = await eventually(() => pageConfigIn(key), (config) => isDeepStrictEqual(read(config), expected), { timeoutMs: 2_000 }).catch(() => pageConfigIn(key));
    expect(read(last)).toEqual(expected);
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
    await settles(store.sdk_key, (config) => config.rules.block, [{ id: rule.body.id, target: 'domain', value: 'skimmer.example' }]);
    expect((await api('PATCH', `/rules/${rule.body.id}`, { active: false })).status).toBe(200);
    await settles(store.sdk_key, (config) => config.rules.block, []);
    expect((await api('PATCH', `/rules/${rule.body.id}`, { active: true })).status).toBe(200);
    await settles(store.sdk_key, (config) => config.rules.block.length, 1);
    expect((await api('DELETE', `/rules/${rule.body.id}`)).status).toBe(200);
    await settles(store.sdk_key, (config) => config.rules.block, []);

    expect((await api('PATCH', `/stores/${store.id}`, { mode: 'block' })).status).toBe(200);
    await settles(store.sdk_key, (config) => config.config.mode, 'block');
    expect((await api('PATCH', `/stores/${store.id}`, { developer_mode: true })).status).toBe(200);
    await settles(store.sdk_key, (config) => config.paused, true);
    expect((await api('PATCH', `/stores/${store.id}`, { developer_mode: false })).status).toBe(200);

    const src = `https://cdn.${store.domain}/widget.js`;
    expect((await service.reportSdk(store.sdk_key, [{ kind: 'script', src, hash: sri('widget') }])).status).toBe(202);
    const script = (await api('GET', `/scripts?store_id=${store.id}`)).body.data[0];
    expect((await api('POST', `/scripts/${script.id}/authorize`, { justification: 'Payment widget' })).status).toBe(200);
    await settles(store.sdk_key, (config) => config.authorized_urls, [src]);
  });
});
