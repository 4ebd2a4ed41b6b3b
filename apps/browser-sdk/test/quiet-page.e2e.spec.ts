import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext } from 'puppeteer-core';
import { eventually, sri } from '@pss/testkit';
import { EmbeddedHarness } from '../../embedded/src/testing/embedded-harness';
import { chromiumFound, CHROME_PATH, launchChromium } from './chromium';
import { FixtureServer } from './fixture-server';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests read whatever the API answered */

const SCOPES = ['stores:read', 'stores:write', 'scripts:read', 'alerts:read'];
const WAIT = { timeoutMs: 20_000, intervalMs: 100 };

if (!chromiumFound()) console.log(`Browser SDK tests skipped: no Chromium at ${CHROME_PATH} (set CHROME_PATH, or apt-get install chromium)`);
const describeInChromium = chromiumFound() ? describe : describe.skip;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** What a page view showed the shop's developers (console errors, requests) and what the SDK sent. */
interface View {
  errors: string[];
  requests: Array<{ method: string; url: string }>;
  observations: any[];
}

/** The noise a shop sees first: nothing in the console, nothing false in the alerts, nothing private in its logs. */
describeInChromium('a quiet payment page: the SDK adds no console errors, false alerts or logged queries', () => {
  let service: EmbeddedHarness;
  let fixtures: FixtureServer;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let token: string;
  let api: string;

  beforeAll(async () => {
    const port = await freePort();
    api = `http://127.0.0.1:${port}`;
    service = await EmbeddedHarness.start({ env: { PUBLIC_URL: api } });
    await service.app.listen(port, '127.0.0.1');
    fixtures = await FixtureServer.start();
    fixtures.page('/favicon.ico', ''); // a missing favicon is a console error of the browser's own
    ({ browser, close: closeBrowser } = await launchChromium());
    ({ token } = await service.tenant(SCOPES, { plan: 'enterprise' }));
  }, 60_000);

  afterAll(async () => {
    await closeBrowser?.();
    await fixtures?.close();
    await service?.close();
  });

  const scripts = async (storeId: string): Promise<any[]> => (await service.request('GET', `/api/v1/scripts?store_id=${storeId}&limit=100`, { token })).body.data;
  const alerts = async (storeId: string): Promise<any[]> => (await service.request('GET', `/api/v1/alerts?store_id=${storeId}&limit=100`, { token })).body.data;

  /**
   * A page view in `context`, over once the SDK has sent a script observation naming `settledBy` (its re-fetch, if
   * any, is done by then: the first batch waits for the page's scripts to be hashed).
   */
  async function view(context: BrowserContext, url: string, settledBy: string, beforeLoad?: string): Promise<View> {
    const page = await context.newPage();
    if (beforeLoad) await page.evaluateOnNewDocument(beforeLoad);
    const seen: View = { errors: [], requests: [], observations: [] };
    page.on('console', (message) => message.type() === 'error' && seen.errors.push(message.text()));
    page.on('pageerror', (error) => seen.errors.push(String((error as Error).message ?? error)));
    page.on('request', (request) => {
      seen.requests.push({ method: request.method(), url: request.url() });
      if (request.url().includes('/sdk/v1/events')) seen.observations.push(...(JSON.parse(request.postData() ?? '{}').observations ?? []));
    });
    await page.goto(url, { waitUntil: 'load' });
    await eventually(
      async () => seen.observations,
      (sent) => sent.some((observation) => observation.kind === 'script' && String(observation.src).includes(settledBy)),
      WAIT,
    );
    await page.evaluate('new Promise((resolve) => setTimeout(resolve, 300))'); // CDP may report a console message late
    await page.close();
    return seen;
  }

  it('opens no CSP_VIOLATION for the standard tag-manager snippet in block mode, on the first view or the next', async () => {
    const store = await service.createStore(token, { mode: 'block' });
    fixtures.script('/gtm.js', 'window.gtmRan = (window.gtmRan || 0) + 1;');
    const gtmBase = fixtures.url('/gtm.js', 'vendor');
    // Block mode's install (docs/sdk.md): the SDK as a synchronous tag, first in <head>; then the snippet as Google
    // Tag Manager gives it, which inserts gtm.js before the document's first script: the SDK's.
    const sdkTag = `<script src="${api}/sdk/v1/sdk.js?key=${store.sdk_key}" data-key="${store.sdk_key}" crossorigin="anonymous"></script>`;
    const snippet = `<script>(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':new Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0],j=d.createElement(s),dl=l!='dataLayer'?'&l='+l:'';j.async=true;j.src='${gtmBase}?id='+i+dl;f.parentNode.insertBefore(j,f);})(window,document,'script','dataLayer','GTM-TEST');</script>`;
    const url = fixtures.page('/quiet/gtm-checkout', `<!doctype html><html><head>${sdkTag}${snippet}</head><body><input autocomplete="cc-number"></body></html>`, {
      'Content-Security-Policy': `script-src 'self' 'unsafe-inline' ${api} ${new URL(gtmBase).origin}`,
    });
    const context = await browser.createBrowserContext();
    // The first view asks for the block-mode config; the next starts from the one it kept.
    const views = [await view(context, url, 'gtm.js?id=GTM-TEST'), await view(context, url, 'gtm.js?id=GTM-TEST')];
    await context.close();

    for (const seen of views) {
      expect(seen.observations.filter((observation) => observation.kind === 'csp_violation')).toEqual([]);
      expect(seen.errors).toEqual([]);
    }
    const listed = await eventually(() => scripts(store.id), (list) => list.some((script) => script.src === `${gtmBase}?id=GTM-TEST`), WAIT);
    expect(listed.find((script) => script.src.startsWith(gtmBase))).toMatchObject({ gtm_container: 'GTM-TEST' });
    expect((await alerts(store.id)).filter((alert) => alert.type === 'CSP_VIOLATION')).toEqual([]);
  }, 90_000);

  it('puts no CORS error in the console for a vendor script without CORS, on the first view or the one view in 20 that retried', async () => {
    const store = await service.createStore(token, {});
    fixtures.script('/quiet/nocors.js', 'window.nocorsRan = true;');
    fixtures.script('/quiet/cors.js', 'window.corsRan = true;', { cors: true });
    const [nocors, cors] = [fixtures.url('/quiet/nocors.js', 'vendor'), fixtures.url('/quiet/cors.js', 'other')];
    const url = fixtures.page('/quiet/vendor-checkout', `<!doctype html><html><head>${store.snippets.html}<script src="${nocors}"></script><script src="${cors}" crossorigin="anonymous"></script></head><body></body></html>`);
    const refetched = (seen: View) => seen.requests.filter((request) => request.method === 'GET' && request.url === nocors).length;

    const context = await browser.createBrowserContext();
    const first = await view(context, url, 'nocors.js');
    // A later view, on the draw that used to re-fetch every script anyway
    const retry = await view(context, url, 'nocors.js', 'Math.random = function () { return 0; };');
    await context.close();

    for (const seen of [first, retry]) {
      expect(seen.errors).toEqual([]);
      expect(refetched(seen)).toBe(1); // the browser's own load, nothing more
    }
    const list = await eventually(() => scripts(store.id), (found) => found.length >= 2, WAIT);
    expect(list.find((script) => script.src === nocors)).toMatchObject({ current_hash: null, integrity_status: 'pending' });
    // A vendor whose CORS the browser's own load passed is still hashed in the page.
    expect(list.find((script) => script.src === cors)).toMatchObject({ current_hash: sri('window.corsRan = true;'), hash_source: 'sdk' });
  }, 90_000);

  it("reads the page's security headers with a HEAD of its path, never its query", async () => {
    const store = await service.createStore(token, {});
    fixtures.script('/quiet/app.js', 'window.appRan = true;');
    const page = fixtures.page('/quiet/order', `<!doctype html><html><head>${store.snippets.html}<script src="/quiet/app.js"></script></head><body></body></html>`, {
      'X-Frame-Options': 'DENY',
    });
    const context = await browser.createBrowserContext();
    const seen = await view(context, `${page}?order=4711&token=s3cr3t`, 'app.js');
    await context.close();

    expect(seen.requests.filter((request) => request.method === 'HEAD').map((request) => request.url)).toEqual([page]);
    expect(seen.observations.find((observation) => observation.kind === 'headers')).toMatchObject({ headers: { 'x-frame-options': 'DENY' } });
    expect(seen.errors).toEqual([]);
  }, 60_000);
});
