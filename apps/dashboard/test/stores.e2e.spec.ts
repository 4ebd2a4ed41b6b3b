import type { Page } from 'puppeteer-core';
import { eventually } from '@pss/testkit';
import { accessible, DashboardInChromium, describeInChromium, fixtureServerForSuite, ownerBackWithRecoveryCode, pressByKeyboard, screenshot, signInWithCode, text } from './dashboard-browser';

const OWNER = 'me@shop.example';

/**
 * A new shop's first steps in Chromium, by keyboard: from an empty home the owner creates a store (a refused page
 * pattern first, in the command's words), copies the HTML snippet into a checkout page served elsewhere, and the
 * install page shows that page view and its scripts without a reload; then the store's settings (a limit refused,
 * a change saved, developer mode, a key rotation showing until when the old key works, suspension), and the home
 * page with the store's SDK and what awaits a decision. Every page passes axe with no CSP violation; a form posted
 * without its CSRF token is refused, and a viewer's changes too.
 */
describeInChromium('dashboard stores: home, new store, install check and settings in Chromium (embedded)', () => {
  const dashboard = DashboardInChromium.forSuite();
  const shopServer = fixtureServerForSuite();

  /** What an element shows, as a reader sees it (line breaks included). */
  const field = (page: Page, selector: string) => page.$eval(selector, (element) => (element as unknown as { innerText: string }).innerText.trim());

  /** Replaces a field's text by keyboard: select all of it, then type. */
  async function retype(page: Page, selector: string, value: string): Promise<void> {
    await page.focus(selector);
    await page.keyboard.down('Control');
    await page.keyboard.press('KeyA');
    await page.keyboard.up('Control');
    await page.keyboard.press('Backspace');
    await page.keyboard.type(value);
  }

  it('creates a store by keyboard, sees the first page view and its scripts arrive on the install page, and changes its settings', async () => {
    const org = await dashboard.service.createOrganization({ name: 'Shop', 'owner-email': OWNER });
    const { page } = await dashboard.personWithPasskeyDevice();
    await ownerBackWithRecoveryCode(page, org.invitation_link as string, OWNER);
    await page.goto(`${dashboard.base}/dashboard?lang=en`);
    expect(await text(page)).toContain('No stores yet.');
    await accessible(page);

    await pressByKeyboard(page, 'New store');
    expect(page.url()).toBe(`${dashboard.base}/dashboard/stores/new`);
    await accessible(page);
    await page.type('#domain', 'checkout.shop.test');
    await page.focus('#environment');
    await page.keyboard.press('ArrowDown');
    expect(await page.$eval('#environment', (select) => (select as unknown as { value: string }).value)).toBe('staging');
    await page.type('#name', 'Loja Centro');
    await page.type('#payment_pages', 'checkout pix card');
    await page.type('#recipients', 'pix 12345678000199 Loja Centro');
    const refused = await pressByKeyboard(page, 'Create the store');
    expect(refused!.status()).toBe(400);
    // The command's refusal by its reason in the page's language, on the field it is about, the rest of the form kept.
    expect(await field(page, '#payment_pages-error')).toBe('each URL pattern must be a path starting with /, e.g. /checkout/*.');
    expect(await page.$eval('#payment_pages', (area) => (area as unknown as { getAttribute(name: string): string }).getAttribute('aria-describedby'))).toBe('payment_pages-hint payment_pages-error');
    expect(await page.$eval('#domain', (input) => (input as unknown as { value: string }).value)).toBe('checkout.shop.test');
    await accessible(page);
    await screenshot(page, 'store-create', { fullPage: true });
    expect((await dashboard.postForm(page, '/dashboard/stores', 'domain=other.shop.test&environment=staging', false)).status).toBe(403);

    await retype(page, '#payment_pages', '/checkout/* pix card');
    await pressByKeyboard(page, 'Create the store');
    expect(page.url()).toMatch(new RegExp(`^${dashboard.base}/dashboard/stores/[0-9a-f-]{36}/install$`));
    expect(await text(page)).toContain('Store Loja Centro created. Install the SDK.');
    expect(await field(page, '#install-status')).toBe('Waiting for the first page view…');
    expect(await text(page)).toContain('Worth checking (the service cannot tell): is the snippet the first element of <head>?');
    await accessible(page);

    // The shop pastes the HTML snippet first in its checkout's <head>, in another tab; the install page stays as it is.
    const snippet = await field(page, '#snippet-html');
    expect(snippet).toContain(`${dashboard.base}/sdk/v1/sdk.js?key=pk_live_`);
    shopServer().script('/stores/vendor.js', 'window.vendorRan = true;', { cors: true });
    const checkout = shopServer().page(
      '/stores/checkout/pay',
      `<!doctype html><html><head>${snippet}<script src="${shopServer().url('/stores/vendor.js', 'vendor')}" crossorigin="anonymous"></script></head><body><form><input name="cardnumber" autocomplete="cc-number"></form></body></html>`,
    );
    await page.evaluate(() => ((globalThis as { stillTheSamePage?: boolean }).stillTheSamePage = true));
    const shop = await (await dashboard.browser.createBrowserContext()).newPage();
    await shop.goto(checkout, { waitUntil: 'load' });

    await page.waitForFunction(() => /The SDK is reporting/.test((globalThis as any).document.getElementById('install-status').textContent), { timeout: 30_000 });
    await page.waitForFunction(() => /widgets-vendor\.test.*vendor\.js/.test((globalThis as any).document.getElementById('install-scripts').textContent), { timeout: 30_000 });
    expect(await page.evaluate(() => (globalThis as { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(true);
    expect(await field(page, '#install-scripts')).toMatch(/vendor\.js needs review/);
    expect(await page.$eval('#install-causes-block', (block) => (block as unknown as { hidden: boolean }).hidden)).toBe(true);
    await accessible(page);
    await screenshot(page, 'store-install', { fullPage: true });

    await pressByKeyboard(page, 'Settings of Loja Centro');
    await accessible(page);
    await retype(page, '#calibration_seconds', '5');
    const tooShort = await pressByKeyboard(page, 'Save the configuration');
    expect(tooShort!.status()).toBe(400);
    expect(await field(page, '#calibration_seconds-error')).toBe('must be a whole number from 10 to 120.');
    await accessible(page);
    await screenshot(page, 'store-settings', { fullPage: true });
    await retype(page, '#calibration_seconds', '45');
    await pressByKeyboard(page, 'Save the configuration');
    expect(await text(page)).toContain('SDK configuration saved.');
    expect(await page.$eval('#calibration_seconds', (input) => (input as unknown as { value: string }).value)).toBe('45');

    await pressByKeyboard(page, 'Turn developer mode on');
    expect(await text(page)).toContain('Developer mode on: the SDK is paused.');
    const storeId = page.url().split('/')[5];
    const check = await dashboard.service.request('GET', `/dashboard/stores/${storeId}/install-check.json`, { headers: { cookie: await dashboard.sessionCookie(page.browserContext()), 'accept-language': 'en' } });
    expect(check.body.causes).toEqual([{ text: 'Seen by the service: developer mode is on, which pauses the SDK. Turn it off in the settings.', seen: true }]);
    await pressByKeyboard(page, 'Turn developer mode off');
    expect(await text(page)).toContain('Developer mode off.');

    const oldKey = await field(page, 'dd code');
    await pressByKeyboard(page, 'Rotate the SDK key');
    expect(await text(page)).toMatch(/New key issued\. The previous one works until .+ GMT-3\./);
    expect(await field(page, 'dd code')).not.toBe(oldKey);
    expect(await text(page)).toContain('The previous key works until');
    await accessible(page);

    // Each change names the person in the audit log, as the API's do with their token.
    await page.goto(`${dashboard.base}/dashboard/audit-log`);
    const audit = await text(page);
    for (const action of ['store.created', 'store.updated', 'store.sdk_key_rotated']) expect(audit).toMatch(new RegExp(`user:${OWNER}\\s+${action.replace('.', '\\.')}`));
    await page.goto(`${dashboard.base}/dashboard/stores/${storeId}/settings`);

    // A viewer reads the settings; every change, and creating a store, is refused on the server.
    const viewerCode = await dashboard.seatMember(org.id, 'viewer@shop.example', { kind: 'viewer' });
    const { page: viewer } = await dashboard.personWithPasskeyDevice();
    await viewer.goto(`${dashboard.base}/dashboard/sign-in?lang=en`);
    await signInWithCode(viewer, 'viewer@shop.example', viewerCode);
    await viewer.goto(`${dashboard.base}/dashboard/stores/${storeId}/settings`);
    expect(await text(viewer)).toContain("Read-only: only this store's owner or the organization owner changes the settings.");
    expect(await viewer.$$(`form[action^="/dashboard/stores/"]`)).toEqual([]);
    await accessible(viewer);
    const settingsForm = 'mode=block&calibration_seconds=30&overlay_check_interval_ms=2000&installation_order_policy=warn&release_channel=stable';
    for (const [path, body] of [['sdk', settingsForm], ['developer-mode', 'developer_mode=on'], ['rotate-key', ''], ['suspend', 'confirm=yes']]) {
      expect((await dashboard.postForm(viewer, `/dashboard/stores/${storeId}/${path}`, body, true)).status).toBe(403);
    }
    expect((await dashboard.postForm(viewer, '/dashboard/stores', 'domain=viewer.shop.test&environment=staging', true)).status).toBe(403);

    const unconfirmed = await pressByKeyboard(page, 'Suspend the store');
    expect(unconfirmed!.status()).toBe(400);
    expect(await field(page, '#confirm-error')).toBe('Tick the confirmation to suspend the store.');

    await pressByKeyboard(page, 'Home');
    await eventually(() => text(page), (shown) => shown.includes('Loja Centro'));
    const row = await field(page, 'table.stores tbody tr');
    expect(row).toMatch(/^Loja Centro\ncheckout\.shop\.test\s+Installed\nLast page view: .+ GMT-3\nInstall/);
    expect(row).toMatch(/1 to review/);
    expect(row).toContain('not scheduled');
    await accessible(page);
    await screenshot(page, 'home-stores', { fullPage: true });

    // An edited page address is said to be one, with the first page of stores.
    const stale = await page.goto(`${dashboard.base}/dashboard?cursor=edited`);
    expect(stale!.status()).toBe(400);
    expect(await text(page)).toContain('That page address is not one this list gave; this is the first page of stores.');
    expect(await text(page)).toContain('Loja Centro');

    expect(dashboard.violations).toEqual([]);
  }, 180_000);
});
