import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Page } from 'puppeteer-core';
import { sri } from '@pss/testkit';
import { SDK_LOADER, SDK_LOADER_CSP_HASH } from '@pss/contracts';
import { VENDOR_HOST } from './fixture-server';
import { describeInChromium, serviceInChromium } from './service-in-chromium';

/** How much later than the same page without the SDK a checkout's load event may come, whatever the service does. */
const LOAD_EVENT_SLACK_MS = 5_000;

/** A service behind a stuck load balancer: it accepts every connection, reads what comes and never answers. */
class HangingService {
  private readonly sockets = new Set<Socket>();
  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<HangingService> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const hanging = new HangingService(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('connection', (socket) => {
      hanging.sockets.add(socket);
      socket.on('close', () => hanging.sockets.delete(socket));
      socket.resume();
    });
    return hanging;
  }

  get connections(): number {
    return this.sockets.size;
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describeInChromium('a checkout whose script security service hangs', () => {
  const rig = serviceInChromium(['stores:read', 'stores:write', 'scripts:read', 'scripts:review']);
  let hanging: HangingService;
  beforeAll(async () => {
    hanging = await HangingService.start();
  });
  afterAll(async () => {
    await hanging?.close();
  });

  const checkout = (snippet: string, prefix: string) =>
    `<!doctype html><html><head>${snippet}<script src="${prefix}/jquery.js"></script><script async src="${prefix}/tag.js"></script></head>` +
    `<body><form id="pay"><input id="cc" name="cardnumber" autocomplete="cc-number"></form><img src="${prefix}/logo.svg" alt="">` +
    `<script>window.inlineRan = typeof window.$ === 'function';</script></body></html>`;

  /** Milliseconds from navigation to the load event, and whether every script of the shop ran. */
  async function view(url: string): Promise<{ loadMs: number; ran: boolean[]; errors: string[]; page: Page }> {
    const { page, errors } = await rig.visit(url, { timeoutMs: 60_000 });
    const loadMs = (await page.evaluate('performance.getEntriesByType("navigation")[0].loadEventStart')) as number;
    const ran = (await page.evaluate('[typeof window.$ === "function", !!window.tagRan, !!window.inlineRan]')) as boolean[];
    return { loadMs, ran, errors, page };
  }

  const shop = (prefix: string) => {
    const { fixtures } = rig;
    fixtures.script(`${prefix}/jquery.js`, 'window.$ = function () { return document.querySelector.apply(document, arguments); };');
    fixtures.script(`${prefix}/tag.js`, 'window.tagRan = true;');
    fixtures.script(`${prefix}/logo.svg`, '');
  };

  it('keeps selling: the load event comes within 5 s of the page without the SDK, and every script ran', async () => {
    const { service, fixtures, token, api } = rig;
    const store = await service.createStore(token, {});
    shop('/hang');
    const snippet = store.snippets.html.split(api).join(hanging.origin); // the snippet as pasted, its service stuck
    const without = await view(fixtures.page('/hang/without', checkout('', '/hang')));
    const withSdk = await view(fixtures.page('/hang/with', checkout(snippet, '/hang')));
    expect(hanging.connections).toBeGreaterThan(0); // the SDK's request did reach the stuck service
    expect(without.ran).toEqual([true, true, true]);
    expect(withSdk.ran).toEqual([true, true, true]);
    expect(withSdk.loadMs).toBeLessThan(without.loadMs + LOAD_EVENT_SLACK_MS);
    expect(withSdk.errors).toEqual([]);
    await withSdk.page.type('#cc', '4111');
    expect(await withSdk.page.evaluate('document.getElementById("cc").value')).toBe('4111');
  }, 90_000);

  it('keeps selling when the SDK comes from a CDN and only its service hangs', async () => {
    const { service, fixtures, token } = rig;
    const store = await service.createStore(token, {});
    shop('/cdn');
    fixtures.script('/cdn/sdk.js', (await service.request('GET', '/sdk/v1/sdk.js')).text);
    const snippet = `<script src="${fixtures.url('/cdn/sdk.js')}" data-key="${store.sdk_key}" data-endpoint="${hanging.origin}/sdk/v1/"></script>`;
    const without = await view(fixtures.page('/cdn/without', checkout('', '/cdn')));
    const withSdk = await view(fixtures.page('/cdn/with', checkout(snippet, '/cdn')));
    expect(withSdk.ran).toEqual([true, true, true]);
    expect(withSdk.loadMs).toBeLessThan(without.loadMs + LOAD_EVENT_SLACK_MS);
    expect(withSdk.errors).toEqual([]);
  }, 90_000);

  it('with the service answering, the loader starts the SDK under a strict CSP with Trusted Types, and it reports the page', async () => {
    const { service, fixtures, token, api } = rig;
    const store = await service.createStore(token, {});
    shop('/strict');
    // The hash as a shop finds it: published with the SDK's versions.
    const { loader } = (await service.request('GET', '/sdk/v1/versions')).body;
    expect(loader).toEqual({ csp_hash: SDK_LOADER_CSP_HASH });
    const csp = `script-src 'self' ${api} '${loader.csp_hash}'; connect-src 'self' ${api}; require-trusted-types-for 'script'; trusted-types pss-loader`;
    const url = fixtures.page('/strict/checkout', checkout(store.snippets.html, '/strict'), { 'Content-Security-Policy': csp });
    const { page, errors } = await view(url);
    expect(errors).toEqual([]);
    const scripts = await rig.scriptsUntil(store.id, (list) => list.some((script) => script.src.endsWith('/strict/jquery.js')));
    expect(scripts.map((script) => script.src)).toEqual(expect.arrayContaining([fixtures.url('/strict/jquery.js'), fixtures.url('/strict/tag.js')]));
    // the SDK is not a script of the shop, nor is its loader
    expect(scripts.some((script) => script.src.includes('/sdk/v1/sdk.js') || script.src === `inline:${sri(SDK_LOADER)}`)).toBe(false);
    expect(scripts.filter((script) => script.src.startsWith('inline:'))).toHaveLength(1); // the page's own, which its CSP refused to run
    await page.close();
  }, 90_000);
  it("in block mode, stops a script of the page's HTML with the last page view's rules before the SDK has come", async () => {
    const { service, fixtures, browser, token } = rig;
    const store = await service.createStore(token, { mode: 'block' });
    fixtures.script('/guard/pixel.js', 'window.pixelRan = true;');
    const pixel = fixtures.url('/guard/pixel.js', 'vendor');
    const url = fixtures.page(
      '/guard/checkout',
      `<!doctype html><html><head>${store.snippets.html}</head><body><script src="${pixel}" onerror="window.pixelFailed = true"></script>` +
        '<script>window.after = true;</script></body></html>',
    );
    const context = await browser.createBrowserContext();
    const visit = async () => {
      const { page } = await rig.visit(url, { context });
      // the SDK's config kept for the next page view of this browser (block mode keeps it, from its fetch)
      await page.waitForFunction(`window.__pssSdk === true && !!localStorage.getItem('pss.cfg.${store.sdk_key}')`);
      const state = await page.evaluate('({ pixel: !!window.pixelRan, failed: !!window.pixelFailed, after: !!window.after, sdk: !!window.__pssSdk })');
      await page.close();
      return state;
    };
    expect(await visit()).toEqual({ pixel: true, failed: false, after: true, sdk: true });
    const seen = (await rig.scriptsUntil(store.id, (list) => list.some((script) => script.src === pixel))).find((script) => script.src === pixel);
    const blocked = await service.request('POST', `/api/v1/scripts/${seen.id}/block`, { token, body: { justification: 'A pixel on the checkout' } });
    expect(blocked.body).toMatchObject({ rule: { target: 'domain', value: VENDOR_HOST } });
    await visit(); // the SDK of this view keeps the block-mode config for the next
    expect(await visit()).toEqual({ pixel: false, failed: true, after: true, sdk: true });
    await context.close();
  }, 90_000);
});
