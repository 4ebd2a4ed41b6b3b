import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { eventually, freePort } from '@pss/testkit';
import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';
import { chromiumFound, CHROME_PATH, launchChromium } from './chromium';
import { FixtureServer } from './fixture-server';


if (!chromiumFound()) console.log(`Browser SDK tests skipped: no Chromium at ${CHROME_PATH} (set CHROME_PATH, or apt-get install chromium)`);
/** A suite that needs Chromium: skipped, with the line above, on a machine without one. */
export const describeInChromium = chromiumFound() ? describe : describe.skip;

/** How long a test waits for what a page view sent to show (the SDK batches, the read models follow), and how often it looks. */
export const WAIT = { timeoutMs: 20_000, intervalMs: 100 };

/** A page view: the page, and the errors its scripts threw. */
export interface PageView {
  page: Page;
  errors: string[];
}

export interface VisitOptions {
  /** The context of earlier views, whose storage (the SDK's kept config) this one starts from; a fresh one by default. */
  context?: BrowserContext;
  /** How long the page may take to load; puppeteer's default otherwise. */
  timeoutMs?: number;
}

/** What a browser test runs against: the embedded service on a real port, the shop's fixtures and one Chromium. */
export interface ServiceInChromium {
  service: EmbeddedHarness;
  fixtures: FixtureServer;
  browser: Browser;
  /** A token of a new organization with the scopes asked for. */
  token: string;
  /** The service's base URL, as pages load the SDK from it. */
  api: string;
  /** The SDK as a synchronous tag, first in <head> (docs/sdk.md, "Block mode's whole guarantee"): it sees the HTML's scripts before they run. */
  synchronousTag(store: { sdk_key: string }): string;
  /** The store's inventory and alerts as the API lists them (one page of 100), with the suite's token. */
  scripts(storeId: string): Promise<any[]>;
  alerts(storeId: string): Promise<any[]>;
  /** Those lists once `done` holds of them, within `WAIT`. */
  scriptsUntil(storeId: string, done: (list: any[]) => boolean): Promise<any[]>;
  alertsUntil(storeId: string, done: (list: any[]) => boolean): Promise<any[]>;
  /** Opens `url` and waits for its load event, collecting the page's errors from before it starts. */
  visit(url: string, options?: VisitOptions): Promise<PageView>;
}

/**
 * Started before the suite's tests and stopped after them; the fields are there once `beforeAll` has run.
 * `front` puts something before the service's port (a TLS front) and answers the base URL pages reach it at.
 */
export function serviceInChromium(scopes: string[], { front }: { front?: (port: number) => Promise<string> } = {}): ServiceInChromium {
  const list = async (what: 'scripts' | 'alerts', storeId: string): Promise<any[]> =>
    (await rig.service.request('GET', `/api/v1/${what}?store_id=${storeId}&limit=100`, { token: rig.token })).body.data;
  const rig = {
    synchronousTag: (store: { sdk_key: string }) => `<script src="${rig.api}/sdk/v1/sdk.js?key=${store.sdk_key}" data-key="${store.sdk_key}" crossorigin="anonymous"></script>`,
    scripts: (storeId: string) => list('scripts', storeId),
    alerts: (storeId: string) => list('alerts', storeId),
    scriptsUntil: (storeId: string, done: (list: any[]) => boolean) => eventually(() => list('scripts', storeId), done, WAIT),
    alertsUntil: (storeId: string, done: (list: any[]) => boolean) => eventually(() => list('alerts', storeId), done, WAIT),
    visit: async (url: string, { context, timeoutMs }: VisitOptions = {}) => {
      const page = await (context ?? (await rig.browser.createBrowserContext())).newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(String((error as Error).message ?? error)));
      await page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
      return { page, errors };
    },
  } as ServiceInChromium;
  let closeBrowser: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const port = await freePort();
    rig.api = front ? await front(port) : `http://127.0.0.1:${port}`;
    // Staging stores: the fixture pages are on 127.0.0.1 and localhost, which a production store takes no page views from.
    rig.service = await EmbeddedHarness.start({ env: { PUBLIC_URL: rig.api }, storeEnvironment: 'staging' });
    await rig.service.app.listen(port, '127.0.0.1');
    rig.fixtures = await FixtureServer.start();
    ({ browser: rig.browser, close: closeBrowser } = await launchChromium());
    ({ token: rig.token } = await rig.service.tenant(scopes, { plan: 'enterprise' }));
  }, 60_000);
  afterAll(async () => {
    await closeBrowser?.();
    await rig.fixtures?.close();
    await rig.service?.close();
  });
  return rig;
}
