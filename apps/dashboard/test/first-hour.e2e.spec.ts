import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HTTPRequest, Page } from 'puppeteer-core';
import { eventually, sri } from '@pss/testkit';
import {
  accessible,
  DashboardInChromium,
  decideByKeyboard,
  describeInChromium,
  fixtureServerForSuite,
  ownerBackWithRecoveryCode,
  pressByKeyboard,
  reviewRowSources,
  tableRows,
  text,
  wallClock,
} from './dashboard-browser';

const OWNER = 'me@shop.example';
const VENDOR = 'https://sdk.mercadopago.com/js/v2';
const VENDOR_SCRIPTS = [VENDOR, `${VENDOR}/card-form.js`, `${VENDOR}/security.js`, `${VENDOR}/3ds.js`];
const CARD_FORM = VENDOR_SCRIPTS[1];
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Issue 32's "Done when", walked once as a new shop does it with the keyboard alone: an empty organization, a
 * store created, its snippet pasted into a checkout served by the fixture server in another tab, the install check
 * showing the page view and its scripts without a reload, three of a payment provider's scripts authorized in one
 * action and a fourth blocked, one authorized script's bytes changed on the checkout, its alert resolved with a
 * note, the checkout as of before the change, and the PDF report whose counts are those of the inventory page.
 * Every page passes axe with no CSP violation.
 */
describeInChromium("issue 32's Done when, as a new shop by keyboard (embedded)", () => {
  const dashboard = DashboardInChromium.forSuite();
  const shopServer = fixtureServerForSuite();

  /** Tabs until the element `selector` names has the focus, as a keyboard user reaches a field. */
  async function tabTo(page: Page, selector: string): Promise<void> {
    for (let presses = 0; presses < 60; presses += 1) {
      await page.keyboard.press('Tab');
      if (await page.$eval(selector, (element) => element === (globalThis as any).document.activeElement)) return;
    }
    throw new Error(`no field ${selector} reachable by Tab`);
  }

  /**
   * The provider's real addresses are what make it a known vendor, and Chromium resolves only the fixture's own
   * names: the checkout's tab gets each of the provider's files from the fixture server, as served now.
   */
  async function providerFromFixtures(shop: Page): Promise<void> {
    await shop.setRequestInterception(true);
    shop.on('request', (request: HTTPRequest) => {
      const url = new URL(request.url());
      if (url.hostname !== 'sdk.mercadopago.com') return void request.continue();
      void fetch(shopServer().url(`/provider${url.pathname}`)).then(async (served) =>
        request.respond({ status: served.status, contentType: 'application/javascript', headers: { 'Access-Control-Allow-Origin': '*' }, body: await served.text() }),
      );
    });
  }

  it('creates a store, sees it installed, decides on a vendor, resolves a change, shows the page before it and reports it', async () => {
    const org = await dashboard.service.createOrganization({ name: 'Shop', 'owner-email': OWNER });
    // Only for waiting on what the service does in the background; every step is taken in the browser.
    const { token } = await dashboard.service.ops('token.create', { org: org.id, name: 'watch', scopes: 'stores:read,scripts:read,alerts:read' });
    const api = (path: string) => dashboard.service.request('GET', `/api/v1${path}`, { token });
    const { page } = await dashboard.personWithPasskeyDevice();
    await ownerBackWithRecoveryCode(page, org.invitation_link as string, OWNER);
    expect(await text(page)).toContain('No stores yet.');
    await accessible(page);

    // A store, by keyboard.
    await pressByKeyboard(page, 'New store');
    await accessible(page);
    await tabTo(page, '#domain');
    await page.keyboard.type('checkout.shop.test');
    await tabTo(page, '#environment');
    await page.keyboard.press('ArrowDown');
    await tabTo(page, '#name');
    await page.keyboard.type('Loja Centro');
    await tabTo(page, '#payment_pages');
    await page.keyboard.type('/checkout/* card');
    await pressByKeyboard(page, 'Create the store');
    expect(page.url()).toMatch(new RegExp(`^${dashboard.base}/dashboard/stores/[0-9a-f-]{36}/install$`));
    expect(await text(page)).toContain('Store Loja Centro created. Install the SDK.');
    const storeId = page.url().split('/')[5];
    await accessible(page);

    // The snippet, first in the checkout's <head>, opened in another tab; the install page is not reloaded.
    const snippet = await page.$eval('#snippet-html', (element) => (element as unknown as { innerText: string }).innerText.trim());
    const provider = (version: string) => VENDOR_SCRIPTS.forEach((src) => shopServer().script(`/provider${new URL(src).pathname}`, `window['${src}'] = '${version}';`));
    provider('v1');
    const tags = VENDOR_SCRIPTS.map((src) => `<script src="${src}" crossorigin="anonymous"></script>`).join('');
    const checkout = shopServer().page('/checkout/pay', `<!doctype html><html><head>${snippet}${tags}</head><body><form><input name="cardnumber" autocomplete="cc-number"></form></body></html>`);
    await page.evaluate(() => ((globalThis as { stillTheSamePage?: boolean }).stillTheSamePage = true));
    const shop = await (await dashboard.browser.createBrowserContext()).newPage();
    await providerFromFixtures(shop);
    await shop.goto(checkout, { waitUntil: 'load' });
    await page.waitForFunction(() => /The SDK is reporting/.test((globalThis as any).document.getElementById('install-status').textContent), { timeout: 30_000 });
    await page.waitForFunction(
      (sources: string[]) => sources.every((src) => (globalThis as any).document.getElementById('install-scripts').textContent.includes(src)),
      { timeout: 30_000 },
      VENDOR_SCRIPTS,
    );
    expect(await page.evaluate(() => (globalThis as { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(true);
    await accessible(page);

    // The review inbox: three of the provider's scripts authorized in one action, the fourth blocked.
    await pressByKeyboard(page, 'Review');
    expect((await reviewRowSources(page)).sort()).toEqual([...VENDOR_SCRIPTS].sort());
    expect(await page.$$eval('section.review-group h2', (titles) => titles.map((title) => title.textContent))).toEqual(['sdk.mercadopago.com · mercado_pago']);
    await accessible(page);
    await decideByKeyboard(page, VENDOR_SCRIPTS.slice(0, 3), 'Mercado Pago card form: takes the card payments on /checkout', 'a');
    expect(await text(page)).toContain('3 script(s) authorized.');
    await decideByKeyboard(page, [VENDOR_SCRIPTS[3]], '3DS helper we do not use', 'b');
    expect(await text(page)).toContain('1 script(s) blocked.');
    expect(await reviewRowSources(page)).toEqual([]);
    await accessible(page);

    // The provider's card form changes; the shopper's next view of the checkout runs the new bytes.
    await pause(1_500);
    const before = new Date();
    await pause(1_500);
    shopServer().script('/provider/js/v2/card-form.js', "window.skimmed = document.querySelector('input[name=cardnumber]');");
    await shop.reload({ waitUntil: 'load' });
    await eventually(async () => (await api(`/alerts?store_id=${storeId}&type=SCRIPT_INTEGRITY_MISMATCH`)).body.data as unknown[], (found) => found.length === 1, { timeoutMs: 30_000, intervalMs: 200 });

    // The alert, as a sentence, resolved with a note.
    await pressByKeyboard(page, 'Alerts');
    const changed = sri("window.skimmed = document.querySelector('input[name=cardnumber]');");
    const authorizedHash = sri(`window['${CARD_FORM}'] = 'v1';`);
    expect(await text(page)).toContain(`The content of the script ${CARD_FORM} changed: it is now ${changed}, and the authorized one is ${authorizedHash}`);
    await accessible(page);
    await pressByKeyboard(page, await page.$eval('#alerts tbody a', (link) => link.getAttribute('aria-label') ?? ''));
    await tabTo(page, '#note');
    await page.keyboard.type('The provider changed its card form; confirmed with Mercado Pago and pinned with SRI');
    await pressByKeyboard(page, 'Resolve with this note');
    expect(await text(page)).toContain('Alert resolved.');
    expect(await text(page)).toContain(`Resolved by user:${OWNER}`);
    await accessible(page);

    // The checkout as of before the change: the authorized bytes' hash.
    await pressByKeyboard(page, 'Page on a date');
    await accessible(page);
    await pressByKeyboard(page, 'Choose the store');
    const store = (await api(`/stores/${storeId}`)).body as { timezone: string };
    const moment = wallClock(before, store.timezone);
    const [year, month, day] = moment.date.split('-');
    const [hour, minute, second] = moment.time.split(':').map(Number);
    await tabTo(page, '#date');
    await page.keyboard.type(`${month}${day}${year}`);
    await tabTo(page, '#time');
    const twoDigits = (value: number) => String(value).padStart(2, '0');
    await page.keyboard.type(`${twoDigits(hour % 12 || 12)}${twoDigits(minute)}${twoDigits(second)}${hour < 12 ? 'A' : 'P'}`);
    expect(await page.$eval('#date', (input) => (input as unknown as { value: string }).value)).toBe(moment.date);
    expect(await page.$eval('#time', (input) => (input as unknown as { value: string }).value)).toBe(moment.time);
    await pressByKeyboard(page, 'Show the page');
    const then = await tableRows(page, '#page-as-of');
    expect(then.find((row) => row[0] === CARD_FORM)?.slice(0, 4)).toEqual([CARD_FORM, 'Authorized', 'Matches the authorized content', authorizedHash]);
    await accessible(page);

    // The inventory page's counts, then the PDF report's.
    await pressByKeyboard(page, 'Inventory');
    const inventory = await tableRows(page, '#inventory');
    const authorizedRows = inventory.filter((cells) => cells.includes('Authorized') || cells.includes('Trusted')).length;
    expect(inventory.length).toBeGreaterThanOrEqual(VENDOR_SCRIPTS.length);
    expect(authorizedRows).toBe(3);
    await accessible(page);

    await pressByKeyboard(page, 'Reports');
    await accessible(page);
    await pressByKeyboard(page, 'Generate the report');
    expect(await text(page)).toContain('Report no. 1 generated.');
    await accessible(page);
    const downloads = mkdtempSync(join(tmpdir(), 'pss-first-hour-'));
    const cdp = await page.createCDPSession();
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads, browserContextId: page.browserContext().id });
    await tabTo(page, '#snapshots a[aria-label="PDF of report no. 1"]');
    await page.keyboard.press('Enter');
    const file = await eventually(() => readdirSync(downloads).find((name) => name.endsWith('.pdf')), Boolean, { timeoutMs: 30_000, intervalMs: 200 });
    const pdfText = execFileSync('pdftotext', ['-enc', 'UTF-8', join(downloads, file!), '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    expect(pdfText).toContain(`Scripts inventoried ${inventory.length} `);
    expect(pdfText).toContain(`Authorized ${authorizedRows} `);

    expect(dashboard.violations).toEqual([]);
  }, 240_000);
});
