import { SDK_LOADER_CSP_HASH } from '@pss/contracts';
import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';
import { sri } from '@pss/testkit';

describe('GET /stores/{id}/csp (HTTP, embedded)', () => {
  let service: EmbeddedHarness;
  let token: string;
  const api = (method: string, path: string, body?: unknown, as = token) => service.request(method, `/api/v1${path}`, { token: as, body });

  beforeAll(async () => {
    service = await EmbeddedHarness.start();
    ({ token } = await service.tenant(['stores:read', 'stores:write', 'scripts:read', 'scripts:review'], { plan: 'enterprise' }));
  });
  afterAll(() => service.close());

  it('writes the policy from what is authorized, with its dry run and integrity attributes', async () => {
    const store = await service.createStore(token);
    const widget = `https://cdn.${store.domain}/widget.js?v=2`;
    const pixel = 'https://pixel.example/p.js';
    expect((await service.reportSdk(store.sdk_key, [{ kind: 'script', src: widget, hash: sri('widget') }, { kind: 'script', src: pixel, hash: sri('pixel') }])).status).toBe(202);
    const scripts: any[] = (await api('GET', `/scripts?store_id=${store.id}`)).body.data;
    const widgetId = scripts.find((s) => s.src === widget).id;
    expect((await api('POST', `/scripts/${widgetId}/authorize`, { justification: 'Payment widget' })).status).toBe(200);

    const answer = await api('GET', `/stores/${store.id}/csp`);
    expect(answer.status).toBe(200);
    const origin = new URL(service.config.publicUrl).origin;
    expect(answer.body).toMatchObject({ store_id: store.id, page_id: null, mode: 'report-only', header: 'Content-Security-Policy-Report-Only' });
    expect(answer.body.value).toContain(`script-src ${origin} '${SDK_LOADER_CSP_HASH}' https://cdn.${store.domain}/widget.js;`);
    expect(answer.body.value).not.toContain('pixel.example');
    expect(answer.body.value).toContain(`report-uri ${service.config.publicUrl}/sdk/v1/csp?key=${store.sdk_key}`);
    expect(answer.body.dry_run.would_break).toEqual([expect.objectContaining({ src: pixel, reason: 'it is needs review, not authorized: its URL is not in script-src' })]);
    // seen today: not yet unchanged for 30 days, so no integrity attribute yet; 1 day is too long as well
    expect(answer.body.integrity).toEqual({ unchanged_days: 30, scripts: [], integrity_policy: null });

    const enforced = await api('GET', `/stores/${store.id}/csp?mode=enforce`);
    expect(enforced.body.header).toBe('Content-Security-Policy');
  });

  it("says the policy a page sends is stale once the inventory changes what it should let run, and fresh again once redeployed", async () => {
    const store = await service.createStore(token);
    const widget = `https://cdn.${store.domain}/widget.js`;
    const pixel = 'https://pixel.example/p.js';
    await service.reportSdk(store.sdk_key, [{ kind: 'script', src: widget, hash: sri('widget') }, { kind: 'script', src: pixel, hash: sri('pixel') }]);
    const scripts: any[] = (await api('GET', `/scripts?store_id=${store.id}`)).body.data;
    const idOf = (src: string) => scripts.find((s) => s.src === src).id;
    await api('POST', `/scripts/${idOf(widget)}/authorize`, { justification: 'Payment widget' });
    const status = async () => (await api('GET', `/stores/${store.id}/status`)).body.csp;
    // The SDK reads the page's headers and reports them: that is how the service knows what is deployed.
    const deploy = async () => {
      const policy = (await api('GET', `/stores/${store.id}/csp?mode=enforce`)).body.value;
      expect((await service.reportSdk(store.sdk_key, [{ kind: 'headers', headers: { 'Content-Security-Policy': policy } }])).status).toBe(202);
    };
    expect(await status()).toEqual({ stale: false, deployed: [] });

    await deploy();
    expect(await status()).toEqual({
      stale: false,
      deployed: [{ page: '/checkout', header: 'Content-Security-Policy', observed_at: expect.any(String), stale: false, blocks_authorized: [], allows_unauthorized: [] }],
    });

    await api('POST', `/scripts/${idOf(pixel)}/authorize`, { justification: 'Analytics we chose' });
    expect(await status()).toMatchObject({ stale: true, deployed: [{ stale: true, blocks_authorized: [{ script_id: idOf(pixel), src: pixel }], allows_unauthorized: [] }] });

    await api('POST', `/scripts/${idOf(widget)}/block`, { justification: 'Skimmer found in it' });
    expect(await status()).toMatchObject({
      stale: true,
      deployed: [{ blocks_authorized: [{ script_id: idOf(pixel) }], allows_unauthorized: [{ script_id: idOf(widget), src: widget, status: 'blocked' }] }],
    });

    await deploy();
    expect(await status()).toMatchObject({ stale: false, deployed: [{ stale: false, blocks_authorized: [], allows_unauthorized: [] }] });
  });

  it('refuses a bad mode, page_id or period in the error shape, and answers 404 for a page or a store not its own', async () => {
    const store = await service.createStore(token);
    const bad = await api('GET', `/stores/${store.id}/csp?mode=block&unchanged_days=0&page_id=x`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_error');
    expect(bad.body.error.details.map((d: any) => d.field).sort()).toEqual(['mode', 'page_id', 'unchanged_days']);
    const page = await api('GET', `/stores/${store.id}/csp?page_id=00000000-0000-4000-8000-000000000000`);
    expect(page.status).toBe(404);
    const other = await service.tenant(['stores:read'], { plan: 'enterprise' });
    expect((await api('GET', `/stores/${store.id}/csp`, undefined, other.token)).status).toBe(404);
  });
});
