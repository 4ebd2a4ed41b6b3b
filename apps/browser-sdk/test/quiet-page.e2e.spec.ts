import type { BrowserContext } from 'puppeteer-core';
import { eventually, sri } from '@pss/testkit';
import { describeInChromium, serviceInChromium, WAIT } from './service-in-chromium';


/** What a page view showed the shop's developers (console errors, requests) and what the SDK sent. */
interface View {
  errors: string[];
  requests: Array<{ method: string; url: string }>;
  observations: any[];
}

/** The noise a shop sees first: nothing in the console, nothing false in the alerts, nothing private in its logs. */
describeInChromium('a quiet payment page: the SDK adds no console errors, false alerts or logged queries', () => {
  const rig = serviceInChromium(['stores:read', 'stores:write', 'scripts:read', 'alerts:read']);
  beforeAll(() => {
    rig.fixtures.page('/favicon.ico', ''); // a missing favicon is a console error of the browser's own
  });

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
    const { fixtures } = rig;
    const store = await rig.service.createStore(rig.token, { mode: 'block' });
    fixtures.script('/gtm.js', 'window.gtmRan = (window.gtmRan || 0) + 1;');
    const gtmBase = fixtures.url('/gtm.js', 'vendor');
    // Block mode's install (docs/sdk.md): the SDK as a synchronous tag, first in <head>; then the snippet as Google
    // Tag Manager gives it, which inserts gtm.js before the document's first script: the SDK's.
    const snippet = `<script>(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':new Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0],j=d.createElement(s),dl=l!='dataLayer'?'&l='+l:'';j.async=true;j.src='${gtmBase}?id='+i+dl;f.parentNode.insertBefore(j,f);})(window,document,'script','dataLayer','GTM-TEST');</script>`;
    const url = fixtures.page('/quiet/gtm-checkout', `<!doctype html><html><head>${rig.synchronousTag(store)}${snippet}</head><body><input autocomplete="cc-number"></body></html>`, {
      'Content-Security-Policy': `script-src 'self' 'unsafe-inline' ${rig.api} ${new URL(gtmBase).origin}`,
    });
    const context = await rig.browser.createBrowserContext();
    // The first view asks for the block-mode config; the next starts from the one it kept.
    const views = [await view(context, url, 'gtm.js?id=GTM-TEST'), await view(context, url, 'gtm.js?id=GTM-TEST')];
    await context.close();

    for (const seen of views) {
      expect(seen.observations.filter((observation) => observation.kind === 'csp_violation')).toEqual([]);
      expect(seen.errors).toEqual([]);
    }
    const listed = await rig.scriptsUntil(store.id, (list) => list.some((script) => script.src === `${gtmBase}?id=GTM-TEST`));
    expect(listed.find((script) => script.src.startsWith(gtmBase))).toMatchObject({ gtm_container: 'GTM-TEST' });
    expect((await rig.alerts(store.id)).filter((alert) => alert.type === 'CSP_VIOLATION')).toEqual([]);
  }, 90_000);

  it('puts no CORS error in the console for a vendor script without CORS, on the first view or the one view in 20 that retried', async () => {
    const { fixtures } = rig;
    const store = await rig.service.createStore(rig.token, {});
    fixtures.script('/quiet/nocors.js', 'window.nocorsRan = true;');
    fixtures.script('/quiet/cors.js', 'window.corsRan = true;', { cors: true });
    const [nocors, cors] = [fixtures.url('/quiet/nocors.js', 'vendor'), fixtures.url('/quiet/cors.js', 'other')];
    const url = fixtures.page('/quiet/vendor-checkout', `<!doctype html><html><head>${store.snippets.html}<script src="${nocors}"></script><script src="${cors}" crossorigin="anonymous"></script></head><body></body></html>`);
    const refetched = (seen: View) => seen.requests.filter((request) => request.method === 'GET' && request.url === nocors).length;

    const context = await rig.browser.createBrowserContext();
    const first = await view(context, url, 'nocors.js');
    // A later view, on the draw that used to re-fetch every script anyway
    const retry = await view(context, url, 'nocors.js', 'Math.random = function () { return 0; };');
    await context.close();

    for (const seen of [first, retry]) {
      expect(seen.errors).toEqual([]);
      expect(refetched(seen)).toBe(1); // the browser's own load, nothing more
    }
    const list = await rig.scriptsUntil(store.id, (found) => found.length >= 2);
    expect(list.find((script) => script.src === nocors)).toMatchObject({ current_hash: null, integrity_status: 'pending' });
    // A vendor whose CORS the browser's own load passed is still hashed in the page.
    expect(list.find((script) => script.src === cors)).toMatchObject({ current_hash: sri('window.corsRan = true;'), hash_source: 'sdk' });
  }, 90_000);

  it("reads the page's security headers with a HEAD of its path, never its query", async () => {
    const { fixtures } = rig;
    const store = await rig.service.createStore(rig.token, {});
    fixtures.script('/quiet/app.js', 'window.appRan = true;');
    const page = fixtures.page('/quiet/order', `<!doctype html><html><head>${store.snippets.html}<script src="/quiet/app.js"></script></head><body></body></html>`, {
      'X-Frame-Options': 'DENY',
    });
    const context = await rig.browser.createBrowserContext();
    const seen = await view(context, `${page}?order=4711&token=s3cr3t`, 'app.js');
    await context.close();

    expect(seen.requests.filter((request) => request.method === 'HEAD').map((request) => request.url)).toEqual([page]);
    expect(seen.observations.find((observation) => observation.kind === 'headers')).toMatchObject({ headers: { 'x-frame-options': 'DENY' } });
    expect(seen.errors).toEqual([]);
  }, 60_000);
});
