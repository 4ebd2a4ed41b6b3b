import type { Page } from 'puppeteer-core';
import { describeInChromium, serviceInChromium } from './service-in-chromium';
import { TlsFront } from './tls-front';

/**
 * Issue 35's first line: the CSP the service writes from the inventory, deployed as docs/csp.md says (both headers
 * of GET /stores/{id}/csp?mode=enforce), stops a script the shop never authorized in a browser that never ran
 * the SDK, lets every authorized one run, and the browser's report reaches the service. Over HTTPS, service and
 * shop alike: Chromium reads Reporting-Endpoints, and so sends report-to reports, on secure pages only.
 */
describeInChromium('the generated CSP enforced by Chromium', () => {
  const fronts: TlsFront[] = [];
  const front = async (port: number) => {
    fronts.push(await TlsFront.before(port));
    return fronts[fronts.length - 1];
  };
  const rig = serviceInChromium(['stores:read', 'stores:write', 'scripts:read', 'scripts:review', 'alerts:read'], {
    front: async (port) => `https://127.0.0.1:${(await front(port)).port}`,
  });
  let shop: TlsFront;
  beforeAll(async () => {
    shop = await front(rig.fixtures.port);
  });
  afterAll(() => Promise.all(fronts.map((tls) => tls.close())));

  it('runs every authorized script, stops an unauthorized one, and its report shows in the inventory and alerts', async () => {
    const { fixtures, service, token } = rig;
    const api = (method: string, path: string, body?: unknown) => service.request(method, `/api/v1${path}`, { token, body });
    const store = await service.createStore(token);
    fixtures.script('/enforce/widget.js', 'window.widgetRan = true;');
    fixtures.script('/enforce/skimmer.js', 'window.skimmerRan = true;');
    const widget = shop.secure(fixtures.url('/enforce/widget.js', 'other'));
    const skimmer = shop.secure(fixtures.url('/enforce/skimmer.js', 'vendor'));
    // Inline and authorized: it records what the browser refused (an onerror attribute would itself be refused).
    const watcher = `<script>window.inlineRan = true; window.refused = [];
      document.addEventListener('securitypolicyviolation', function (e) { window.refused.push(e.disposition + ' ' + e.blockedURI); });
      document.addEventListener('error', function (e) { if (e.target.src) window.refused.push('error ' + e.target.src); }, true);</script>`;
    const scripts = `${watcher}<script src="${widget}"></script>`;

    // The shop's SDK inventories its checkout, and the shop authorizes what it found.
    const monitored = shop.secure(fixtures.page('/enforce/monitored', `<!doctype html><html><head>${rig.synchronousTag(store)}${scripts}</head><body>pay</body></html>`));
    const sdkView = await rig.visit(monitored);
    const inventory = await rig.scriptsUntil(store.id, (list) => list.length === 2);
    for (const script of inventory) expect((await api('POST', `/scripts/${script.id}/authorize`, { justification: 'Our checkout' })).status).toBe(200);
    await sdkView.page.browserContext().close();

    const csp = (await api('GET', `/stores/${store.id}/csp?mode=enforce`)).body;
    expect(csp.header).toBe('Content-Security-Policy');
    // A skimmer injected later, after the shop's own scripts, from a host the shop never used.
    const headers = { [csp.header]: csp.value, [csp.reporting_endpoints.header]: csp.reporting_endpoints.value };
    const enforced = shop.secure(fixtures.page('/enforce/checkout', `<!doctype html><html><head>${scripts}<script src="${skimmer}"></script></head><body>pay</body></html>`, headers));
    const { page, errors } = await rig.visit(enforced);
    expect(await outcomeOf(page)).toEqual({ inlineRan: true, widgetRan: true, skimmerRan: false, refused: [`enforce ${skimmer}`, `error ${skimmer}`] });
    expect(errors).toEqual([]);

    const alerts = await rig.alertsUntil(store.id, (list) => list.some((alert) => alert.type === 'CSP_VIOLATION'));
    expect(alerts).toEqual([expect.objectContaining({ type: 'CSP_VIOLATION', source: skimmer, details: expect.objectContaining({ blocked_uri: skimmer }) })]);
    const seen = await rig.scriptsUntil(store.id, (list) => list.some((script) => script.src === skimmer));
    expect(seen.find((script) => script.src === skimmer)).toMatchObject({ status: 'needs_review', current_hash: null });
    // Closed only now: a context's queued reports go with it.
    await page.browserContext().close();
  }, 90_000);
});

const outcomeOf = (page: Page) => page.evaluate('({ inlineRan: !!window.inlineRan, widgetRan: !!window.widgetRan, skimmerRan: !!window.skimmerRan, refused: window.refused.slice().sort() })');
