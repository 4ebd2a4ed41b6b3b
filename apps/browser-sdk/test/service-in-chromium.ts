import type { Browser } from 'puppeteer-core';
import { freePort } from '@pss/testkit';
import { EmbeddedHarness } from '../../embedded/src/testing/embedded-harness';
import { chromiumFound, CHROME_PATH, launchChromium } from './chromium';
import { FixtureServer } from './fixture-server';

if (!chromiumFound()) console.log(`Browser SDK tests skipped: no Chromium at ${CHROME_PATH} (set CHROME_PATH, or apt-get install chromium)`);
/** A suite that needs Chromium: skipped, with the line above, on a machine without one. */
export const describeInChromium = chromiumFound() ? describe : describe.skip;

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
}

/** Started before the suite's tests and stopped after them; the fields are there once `beforeAll` has run. */
export function serviceInChromium(scopes: string[]): ServiceInChromium {
  const rig = {
    synchronousTag: (store: { sdk_key: string }) => `<script src="${rig.api}/sdk/v1/sdk.js?key=${store.sdk_key}" data-key="${store.sdk_key}" crossorigin="anonymous"></script>`,
  } as ServiceInChromium;
  let closeBrowser: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const port = await freePort();
    rig.api = `http://127.0.0.1:${port}`;
    rig.service = await EmbeddedHarness.start({ env: { PUBLIC_URL: rig.api } });
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
