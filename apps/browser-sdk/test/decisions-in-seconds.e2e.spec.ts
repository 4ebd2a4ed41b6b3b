import type { Page } from 'puppeteer-core';
import { VENDOR_HOST } from './fixture-server';
import { describeInChromium, serviceInChromium } from './service-in-chromium';

/**
 * Issue 35's promise: a block rule stops the script on a new browser's next page view within 2 s of the API's 200.
 * The 2 s are the service's part, timed on the `sdk.js` a new browser would fetch: a whole page view in Chromium takes
 * longer than that on a busy CI machine, so timing views would measure the machine, not the service.
 */
const DEADLINE_MS = 2_000;

describeInChromium('a decision reaches the next page view of a new browser within 2 s, in Chromium', () => {
  const rig = serviceInChromium(['stores:read', 'stores:write', 'scripts:read', 'rules:write']);

  it('a block rule created through the API stops a script the HTML loads, decided with the config inside sdk.js', async () => {
    const { fixtures, browser } = rig;
    const store = await rig.service.createStore(rig.token, { mode: 'block' });
    fixtures.script('/seconds/skimmer.js', 'window.skimmerRan = true;');
    // In the HTML right after the SDK: a new browser has no kept config, so only the one inside sdk.js can stop it.
    const url = fixtures.page(
      '/seconds/checkout',
      `<!doctype html><html><head>${rig.synchronousTag(store)}<script src="${fixtures.url('/seconds/skimmer.js', 'vendor')}" onerror="window.skimmerFailed = true"></script></head><body><form id="pay"></form></body></html>`,
    );
    const viewInNewBrowser = async () => {
      const context = await browser.createBrowserContext();
      const { page, errors } = await rig.visit(url, { context });
      const outcome = await outcomeOf(page);
      await context.close();
      return { outcome, errors };
    };

    // The gateway has built (and keeps) the store's script without the rule.
    expect((await viewInNewBrowser()).outcome).toEqual({ ran: true, failed: false });

    const rule = await rig.service.request('POST', '/api/v1/rules', { token: rig.token, body: { store_id: store.id, type: 'block', target: 'domain', value: VENDOR_HOST } });
    expect(rule.status).toBe(201);
    const answeredAt = Date.now();
    const keyedScript = async () => (await rig.service.request('GET', `/sdk/v1/sdk.js?key=${store.sdk_key}`)).text;
    while (!(await keyedScript()).includes(VENDOR_HOST) && Date.now() - answeredAt < DEADLINE_MS) await new Promise((resolve) => setTimeout(resolve, 20));
    const tookMs = Date.now() - answeredAt;
    const view = await viewInNewBrowser();
    expect({ ...view.outcome, withinDeadline: tookMs <= DEADLINE_MS }).toEqual({ ran: false, failed: true, withinDeadline: true });
    expect(view.errors).toEqual([]);
  }, 60_000);
});

const outcomeOf = (page: Page): Promise<{ ran: boolean; failed: boolean }> =>
  page.evaluate('({ ran: !!window.skimmerRan, failed: !!window.skimmerFailed })') as Promise<{ ran: boolean; failed: boolean }>;
