import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'puppeteer-core';
import { eventually } from '@pss/testkit';
import { EmbeddedHarness } from '../../embedded/src/testing/embedded-harness';
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

const token = (algorithm: 'sha256' | 'sha384' | 'sha512', text: string) => `${algorithm}-${createHash(algorithm).update(text).digest('base64')}`;

describeInChromium('a pinned script the browser refused, in Chromium, against the running service', () => {
  let service: EmbeddedHarness;
  let fixtures: FixtureServer;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let apiToken: string;

  beforeAll(async () => {
    const port = await freePort();
    service = await EmbeddedHarness.start({ env: { PUBLIC_URL: `http://127.0.0.1:${port}` } });
    await service.app.listen(port, '127.0.0.1');
    fixtures = await FixtureServer.start();
    ({ browser, close: closeBrowser } = await launchChromium());
    ({ token: apiToken } = await service.tenant(SCOPES, { plan: 'enterprise' }));
  }, 60_000);

  afterAll(async () => {
    await closeBrowser?.();
    await fixtures?.close();
    await service?.close();
  });

  const get = async (path: string): Promise<any[]> => (await service.request('GET', path, { token: apiToken })).body.data;

  it('shows the refused script with its real hash and the refusal, opens an alert, and leaves the one that ran alone', async () => {
    const store = await service.createStore(apiToken, {});
    const swapped = 'window.vendorRan = true; /* swapped upstream */';
    const kept = 'window.keptRan = true;';
    fixtures.script('/refused/vendor.js', swapped, { cors: true });
    fixtures.script('/refused/kept.js', kept, { cors: true });
    // The shop pinned the vendor's previous release with SHA-256: what is served now is something else.
    const pinned = token('sha256', 'window.vendorRan = true;');
    const url = fixtures.page(
      '/refused/checkout',
      `<!doctype html><html><head>${store.snippets.html}
         <script src="${fixtures.url('/refused/vendor.js', 'other')}" integrity="${pinned}" crossorigin="anonymous"></script>
         <script src="${fixtures.url('/refused/kept.js', 'other')}" integrity="${token('sha256', 'no')} ${token('sha512', kept)}" crossorigin="anonymous"></script>
       </head><body><form><input name="cardnumber" autocomplete="cc-number"></form></body></html>`,
    );
    const page = await (await browser.createBrowserContext()).newPage();
    await page.goto(url, { waitUntil: 'load' });
    expect(await page.evaluate('[!!window.vendorRan, !!window.keptRan]')).toEqual([false, true]);

    const list = await eventually(() => get(`/api/v1/scripts?store_id=${store.id}&limit=100`), (found) => found.filter((s) => s.src.includes('/refused/')).length === 2, WAIT);
    const vendor = list.find((s) => s.src.endsWith('/refused/vendor.js'));
    expect(vendor).toMatchObject({
      current_hash: token('sha384', swapped),
      hash_source: 'sdk',
      integrity_attr: true,
      sri_hash: pinned,
      integrity_status: 'mismatch',
      sri_refused: true,
      sri_refused_at: expect.any(String),
    });
    expect(list.find((s) => s.src.endsWith('/refused/kept.js'))).toMatchObject({ current_hash: token('sha384', kept), integrity_status: 'monitored', sri_refused: false });

    const alerts = await eventually(() => get(`/api/v1/alerts?store_id=${store.id}&limit=100`), (found) => found.some((a) => a.type === 'SCRIPT_INTEGRITY_MISMATCH'), WAIT);
    expect(alerts.filter((a) => a.type === 'SCRIPT_INTEGRITY_MISMATCH')).toEqual([
      expect.objectContaining({
        status: 'open',
        severity: 'high',
        source: vendor.src,
        details: expect.objectContaining({ script_id: vendor.id, new_hash: token('sha384', swapped), refused_integrity: pinned, sri_refused: true }),
      }),
    ]);
  }, 60_000);
});
