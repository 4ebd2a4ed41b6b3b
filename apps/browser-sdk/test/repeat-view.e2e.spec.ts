import { createHash } from 'node:crypto';
import type { Page } from 'puppeteer-core';
import { eventually } from '@pss/testkit';
import { describeInChromium, serviceInChromium, WAIT } from './service-in-chromium';

// Scripts longer than a 304's headers: resource timing tells a revalidated body from a new one by the bytes transferred.
const PADDING = `/* ${'x'.repeat(2_000)} */`;
const sha384 = (text: string) => `sha384-${createHash('sha384').update(text).digest('base64')}`;

/** The SDK's own re-fetches of `path` on this page view (a fetch() leaves a resource timing entry; the page's load is a `script` one). */
const refetches = (page: Page, path: string): Promise<number> =>
  page.evaluate((p) => performance.getEntriesByType('resource').filter((e) => (e as { initiatorType?: string }).initiatorType === 'fetch' && e.name.includes(p)).length, path);

describeInChromium('a repeat view of the tab, in Chromium, against the running service', () => {
  const rig = serviceInChromium(['stores:read', 'stores:write', 'scripts:read']);

  it('reports the hashes of scripts the browser ran unchanged without fetching them again, and hashes a changed one', async () => {
    const { fixtures } = rig;
    const store = await rig.service.createStore(rig.token);
    fixtures.script('/repeat/app.js', 'window.appRan = 1;' + PADDING, { revalidated: true });
    fixtures.script('/repeat/vendor.js', 'window.vendorRan = 1;' + PADDING, { cors: true, revalidated: true });
    const url = fixtures.page(
      '/repeat/checkout',
      `<!doctype html><html><head>${rig.synchronousTag(store)}<script src="/repeat/app.js"></script>
       <script src="${fixtures.url('/repeat/vendor.js', 'other')}" crossorigin="anonymous"></script></head><body><form></form></body></html>`,
    );
    const hashesOf = async (done: (list: any[]) => boolean) => {
      const list = await rig.scriptsUntil(store.id, done);
      return ['/repeat/app.js', '/repeat/vendor.js'].map((path) => list.find((script) => script.src.endsWith(path))?.current_hash);
    };
    // What each view's batches said of the two scripts: every page view still reports their hashes.
    let reported: Record<string, string> = {};
    const batchOfView = async (page: Page) => {
      await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.includes('/sdk/v1/events?')), { timeout: 15_000 });
      const seen = await eventually(async () => reported, (found) => Object.keys(found).length === 2, WAIT);
      reported = {};
      return seen;
    };
    const context = await rig.browser.createBrowserContext();
    const page = await context.newPage();
    page.on('request', (request) => {
      if (!request.url().includes('/sdk/v1/events?')) return;
      for (const observation of JSON.parse(request.postData() ?? '{}').observations ?? []) {
        if (observation.src?.includes('/repeat/')) reported[new URL(observation.src).pathname] = observation.hash;
      }
    });
    const first = { app: sha384('window.appRan = 1;' + PADDING), vendor: sha384('window.vendorRan = 1;' + PADDING) };
    await page.goto(url, { waitUntil: 'load' });
    expect(await batchOfView(page)).toEqual({ '/repeat/app.js': first.app, '/repeat/vendor.js': first.vendor });
    expect([await refetches(page, '/repeat/app.js'), await refetches(page, '/repeat/vendor.js')]).toEqual([1, 1]);
    expect(await hashesOf((list) => list.filter((s) => s.src.includes('/repeat/') && s.current_hash).length === 2)).toEqual([first.app, first.vendor]);

    // The same tab again: the browser revalidates both (304), and the SDK reports them from what it kept.
    await page.goto(url, { waitUntil: 'load' });
    expect(await batchOfView(page)).toEqual({ '/repeat/app.js': first.app, '/repeat/vendor.js': first.vendor });
    // Chromium hides the body size of some cross-origin 304s: the vendor's script may then be fetched again, never skipped blind.
    expect(await refetches(page, '/repeat/app.js')).toBe(0);

    // A new release of the app's script is fetched (200) by the page, so the SDK hashes it again.
    fixtures.script('/repeat/app.js', 'window.appRan = 2; /* new release */' + PADDING, { revalidated: true });
    await page.goto(url, { waitUntil: 'load' });
    const release = sha384('window.appRan = 2; /* new release */' + PADDING);
    expect(await batchOfView(page)).toEqual({ '/repeat/app.js': release, '/repeat/vendor.js': first.vendor });
    expect(await refetches(page, '/repeat/app.js')).toBe(1);
    expect(await hashesOf((list) => list.some((s) => s.src.endsWith('/repeat/app.js') && s.current_hash === release))).toEqual([release, first.vendor]);
    await context.close();
  }, 90_000);
});
