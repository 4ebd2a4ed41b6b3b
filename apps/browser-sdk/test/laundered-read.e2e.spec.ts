import type { Browser } from 'puppeteer-core';
import { eventually, freePort } from '@pss/testkit';
import { EmbeddedHarness } from '../../embedded/src/testing/embedded-harness';
import { chromiumFound, CHROME_PATH, launchChromium } from './chromium';
import { FixtureServer } from './fixture-server';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests read whatever the API answered */

const SCOPES = ['stores:read', 'stores:write', 'scripts:read', 'scripts:review', 'alerts:read'];
const WAIT = { timeoutMs: 20_000, intervalMs: 100 };

if (!chromiumFound()) console.log(`Browser SDK tests skipped: no Chromium at ${CHROME_PATH} (set CHROME_PATH, or apt-get install chromium)`);
const describeInChromium = chromiumFound() ? describe : describe.skip;

/** A helper library as small as can be, read the way jQuery's `.val()` reads: `elem.value` inside the library. */
const HELPER = 'window.$ = function (selector) { var element = document.querySelector(selector); return { val: function () { return element.value; } }; };';

describeInChromium('a skimmer reading the card field through an authorized library, in Chromium', () => {
  let service: EmbeddedHarness;
  let fixtures: FixtureServer;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let token: string;

  beforeAll(async () => {
    const port = await freePort();
    const api = `http://127.0.0.1:${port}`;
    service = await EmbeddedHarness.start({ env: { PUBLIC_URL: api } });
    await service.app.listen(port, '127.0.0.1');
    fixtures = await FixtureServer.start();
    ({ browser, close: closeBrowser } = await launchChromium());
    ({ token } = await service.tenant(SCOPES, { plan: 'enterprise' }));
  }, 60_000);

  afterAll(async () => {
    await closeBrowser?.();
    await fixtures?.close();
    await service?.close();
  });

  const list = async (what: 'scripts' | 'alerts', storeId: string): Promise<any[]> =>
    (await service.request('GET', `/api/v1/${what}?store_id=${storeId}&limit=100`, { token })).body.data;
  const checkout = (snippet: string, scripts: string) =>
    `<!doctype html><html><head>${snippet}</head><body><form><input id="cc" name="cardnumber" autocomplete="cc-number" value="4111111111111111"></form>${scripts}</body></html>`;

  async function visit(url: string): Promise<{ close: () => Promise<void>; errors: string[] }> {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String((error as Error).message ?? error)));
    await page.goto(url, { waitUntil: 'load' });
    return { close: () => context.close(), errors };
  }

  it('opens SENSITIVE_FIELD_ACCESS naming the skimmer, not the library, while the shop reading through it stays quiet', async () => {
    const store = await service.createStore(token);
    const helper = fixtures.url('/laundered/helper.js', 'other');
    const skimmer = fixtures.url('/laundered/skim.js', 'vendor');
    fixtures.script('/laundered/helper.js', HELPER, { cors: true });
    fixtures.script('/laundered/skim.js', 'setTimeout(function () { window.stolen = $("#cc").val(); }, 200);', { cors: true });
    // The shop's own checkout code reads the card number through the helper too: that read is no alert.
    const shop = `<script src="${helper}"></script><script>setTimeout(function () { window.checked = $("#cc").val(); }, 50);</script>`;

    // The shop's first page view: the helper is inventoried, and the shop authorizes it.
    const before = await visit(fixtures.page('/laundered/before', checkout(store.snippets.html, shop)));
    const [library] = await eventually(() => list('scripts', store.id), (found) => found.some((script) => script.src === helper), WAIT);
    const authorized = await service.request('POST', `/api/v1/scripts/${library.id}/authorize`, { token, body: { justification: 'Form helper of the checkout, reviewed' } });
    expect(authorized.body.status).toBe('authorized');
    await before.close();

    // Then the checkout is compromised: a skimmer from another host reads the card number through the helper.
    const after = await visit(fixtures.page('/laundered/checkout', checkout(store.snippets.html, `${shop}<script src="${skimmer}"></script>`)));
    const reads = (alerts: any[]) => alerts.filter((alert) => alert.type === 'SENSITIVE_FIELD_ACCESS');
    const alerts = reads(await eventually(() => list('alerts', store.id), (found) => reads(found).length > 0, WAIT));
    expect(alerts).toEqual([
      expect.objectContaining({ source: skimmer, severity: 'high', details: expect.objectContaining({ src: skimmer, field: 'card_number', read_via: [helper] }) }),
    ]);
    const scripts = await list('scripts', store.id);
    expect(scripts.find((script) => script.src === skimmer)).toMatchObject({ id: alerts[0].details.script_id, status: 'suspicious', sensitive_fields_accessed: ['card_number'] });
    expect(scripts.find((script) => script.src === helper)).toMatchObject({ status: 'authorized', sensitive_fields_accessed: ['card_number'] });
    expect(after.errors).toEqual([]);
    await after.close();
  }, 90_000);
});
