import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'puppeteer-core';
import { eventually, sri } from '@pss/testkit';
import { EmbeddedHarness } from '../../embedded/src/testing/embedded-harness';
import { SdkIngestion } from '../../inventory/src/ingestion/sdk-ingestion.service';
import { hashRecipientKey } from '../../inventory/src/stores/recipient-key';
import { chromiumFound, CHROME_PATH, launchChromium } from './chromium';
import { FixtureServer } from './fixture-server';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests read whatever the API answered */

const SCOPES = ['stores:read', 'stores:write', 'scripts:read', 'scripts:review', 'alerts:read'];
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

/** A BR Code ("Pix copia e cola") carrying `key`, as a bank app would show it. */
function brCode(key: string): string {
  const field = (id: string, value: string) => `${id}${String(value.length).padStart(2, '0')}${value}`;
  return field('00', '01') + field('26', field('00', 'br.gov.bcb.pix') + field('01', key)) + field('52', '0000') + field('53', '986') + field('58', 'BR') + field('59', 'LOJA') + field('60', 'SAO PAULO') + '6304ABCD';
}

describeInChromium('the browser SDK in Chromium, against the running service', () => {
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
    ({ browser, close: closeBrowser } = await launchChromium());
    ({ token } = await service.tenant(SCOPES, { plan: 'enterprise' }));
  }, 60_000);

  afterAll(async () => {
    await closeBrowser?.();
    await fixtures?.close();
    await service?.close();
  });

  const createStore = async (body: Record<string, unknown> = {}) => {
    const store = await service.createStore(token, body);
    expect(store.snippets?.html).toContain(`${api}/sdk/v1/sdk.js?key=${store.sdk_key}`);
    return store;
  };
  const scripts = async (storeId: string): Promise<any[]> => (await service.request('GET', `/api/v1/scripts?store_id=${storeId}&limit=100`, { token })).body.data;
  const alerts = async (storeId: string): Promise<any[]> => (await service.request('GET', `/api/v1/alerts?store_id=${storeId}&limit=100`, { token })).body.data;
  const scriptsUntil = (storeId: string, done: (list: any[]) => boolean) => eventually(() => scripts(storeId), done, WAIT);
  const alertsUntil = (storeId: string, done: (list: any[]) => boolean) => eventually(() => alerts(storeId), done, WAIT);
  const bySrc = (list: any[], fragment: string) => list.find((script) => script.src.includes(fragment));

  /** A page view in its own browser context (fresh storage), unless one is given; page errors are collected. */
  async function visit(url: string, context?: Awaited<ReturnType<Browser['createBrowserContext']>>): Promise<{ page: Page; errors: string[] }> {
    const page = await (context ?? (await browser.createBrowserContext())).newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String((error as Error).message ?? error)));
    await page.goto(url, { waitUntil: 'load' });
    return { page, errors };
  }

  /** A checkout page as a shop writes it: the `html` snippet first in <head>, then everything else. */
  const checkout = (snippet: string, head: string, body = '') =>
    `<!doctype html><html><head>${snippet}${head}</head><body><form id="pay"><input id="cc" name="cardnumber" autocomplete="cc-number" value="4111111111111111"></form>${body}</body></html>`;

  it('lists every script of a checkout page, classified and hashed, within seconds of a page view', async () => {
    const store = await createStore();
    const p = '/main';
    fixtures.script(`${p}/app.js`, 'window.appRan = true;');
    fixtures.script(`${p}/module.js`, 'window.moduleRan = true;');
    fixtures.script(`${p}/async.js`, 'window.asyncRan = true;');
    fixtures.script(`${p}/cors.js`, 'window.corsRan = true;', { cors: true });
    fixtures.script(`${p}/nocors.js`, 'window.nocorsRan = true;');
    fixtures.script(`${p}/pinned.js`, 'window.pinnedRan = true;');
    fixtures.script(`${p}/wrong-sri.js`, 'window.wrongSriRan = true;', { cors: true });
    fixtures.script(`${p}/dynamic.js`, 'window.dynamicRan = true;', { cors: true });
    fixtures.script(`${p}/gtm.js`, `(function(){var s=document.createElement('script');s.src='${fixtures.url(`${p}/tag.js`, 'other')}';document.head.appendChild(s);})();`);
    fixtures.script(`${p}/tag.js`, 'window.tagRan = true;', { cors: true });
    const inline = 'window.dataLayer = window.dataLayer || [];';
    const url = fixtures.page(
      `${p}/checkout`,
      checkout(
        store.snippets.html,
        `<script src="${p}/app.js"></script>
         <script type="module" src="${p}/module.js"></script>
         <script async src="${p}/async.js"></script>
         <script defer src="${fixtures.url(`${p}/cors.js`, 'other')}" crossorigin="anonymous"></script>
         <script src="${fixtures.url(`${p}/nocors.js`, 'other')}"></script>
         <script src="${fixtures.url(`${p}/pinned.js`, 'other')}" integrity="${sri('something else')}"></script>
         <script src="${fixtures.url(`${p}/wrong-sri.js`, 'other')}" integrity="${sri('not this content')}" crossorigin="anonymous"></script>
         <script>${inline}</script>
         <script src="${fixtures.url(`${p}/gtm.js?id=GTM-TEST1`, 'other')}"></script>`,
        `<script>var d=document.createElement('script');d.src='${fixtures.url(`${p}/dynamic.js`, 'other')}';document.body.appendChild(d);</script>`,
      ),
    );
    const { page, errors } = await visit(url);
    const list = await scriptsUntil(store.id, (found) => found.length >= 12);
    const external = ['app.js', 'async.js', 'module.js'].map((name) => fixtures.url(`${p}/${name}`));
    const other = ['cors.js', 'dynamic.js', 'gtm.js?id=GTM-TEST1', 'nocors.js', 'pinned.js', 'tag.js', 'wrong-sri.js'].map((name) => fixtures.url(`${p}/${name}`, 'other'));
    expect(list.filter((s) => !s.src.startsWith('inline:')).map((s) => s.src).sort()).toEqual([...external, ...other]);
    expect(list.filter((s) => s.src.startsWith('inline:'))).toHaveLength(2); // the dataLayer and the script that inserts dynamic.js

    const own = (path: string) => createHash('sha384').update(`window.${path};`).digest('base64');
    expect(bySrc(list, `${p}/app.js`)).toMatchObject({ type: 'unknown', status: 'needs_review', current_hash: `sha384-${own('appRan = true')}`, hash_source: 'sdk', size_bytes: 21 });
    expect(bySrc(list, `${p}/module.js`)).toMatchObject({ current_hash: `sha384-${own('moduleRan = true')}`, hash_source: 'sdk' });
    expect(bySrc(list, `${p}/async.js`).hash_source).toBe('sdk');
    expect(bySrc(list, `${p}/cors.js`)).toMatchObject({ current_hash: `sha384-${own('corsRan = true')}`, hash_source: 'sdk', integrity_attr: false });
    // No CORS: the browser does not show the bytes; the integrity attribute is the hash when there is one.
    expect(bySrc(list, `${p}/nocors.js`)).toMatchObject({ current_hash: null, integrity_status: 'pending' });
    expect(bySrc(list, `${p}/pinned.js`)).toMatchObject({ current_hash: sri('something else'), hash_source: 'sri', integrity_attr: true });
    // A wrong SRI: the browser refused to run it, the inventory shows what is really served.
    expect(bySrc(list, `${p}/wrong-sri.js`)).toMatchObject({ current_hash: `sha384-${own('wrongSriRan = true')}`, hash_source: 'sdk', integrity_attr: true });
    expect(bySrc(list, `inline:${sri(inline)}`)).toMatchObject({ type: 'first_party', current_hash: sri(inline), hash_source: 'sdk' });
    expect(bySrc(list, `${p}/gtm.js`)).toMatchObject({ gtm_container: 'GTM-TEST1' });
    expect(bySrc(list, `${p}/tag.js`)).toMatchObject({ gtm_container: 'GTM-TEST1', hash_source: 'sdk' });
    expect(bySrc(list, `${p}/dynamic.js`).hash_source).toBe('sdk');
    for (const script of list) expect(script.type).not.toBeNull();

    expect(await page.evaluate('[!!window.appRan, !!window.moduleRan, !!window.corsRan, !!window.tagRan, !!window.dynamicRan, !!window.wrongSriRan]')).toEqual([true, true, true, true, true, false]);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
