import type { Browser } from 'puppeteer-core';
import { chromiumFound, CHROME_PATH, launchChromium } from '@pss/browser-sdk/test/chromium';
import { FixtureServer } from '@pss/browser-sdk/test/fixture-server';
import type { BenchRow } from './report';
import { SDK_FLOOR_SCRIPT } from './sdk-floor';
import { log, QUICK, withTempDir } from './support';
import { startEmbeddedService } from './targets';

/**
 * Benchmark 7 (browser SDK main-thread cost): a fixture checkout page (own bundle, vendor scripts with and
 * without CORS, inline scripts, a card form, an iframe) opened in Chromium with the CPU throttled 4x, with and
 * without the SDK, alternated, RUNS each (45). Per page view: script time and task time (CDP Performance.getMetrics)
 * and long tasks (> 50 ms, PerformanceObserver), read SETTLE_MS after the load event, once the SDK has done its
 * start-up work (config, hashing, first checks and flush): a view whose first batch had not reached the service by
 * then fails the run (row 7i says when it did). Medians; the budget (issue 10) is at most 20 ms of added script time and no long task
 * of the SDK's own. A third page, alternated with the two, carries the floor script (bench/sdk-floor.ts) instead.
 */

// The issue asks at least 15. The bare page's own script time varies from about 30 to 170 ms between identical
// views (its bundle alone 32-119 ms, with V8's JIT or its background threads off alike): wall time on 2 cores
// shared with the browser's other processes. An empty script measured as if it were the SDK read -18 to +6 ms
// at 21 views; 45 views per side keep a median within about 7 ms.
const RUNS = QUICK ? 3 : 45;
const SETTLE_MS = 3_000;
// SDK_BENCH_TIME=cpu: the main thread's CPU time (CDP's threadTicks) instead of wall time (timeTicks, the default
// and the measure). Time a call spends waiting for a core or for another process is left out, so the
// run-to-run spread narrows (round 7: 24-31 ms for the SDK against 31-65 wall); the budget is still read on wall time.
const CPU_TIME = process.env.SDK_BENCH_TIME === 'cpu';
const TIME = CPU_TIME ? ' (main-thread CPU time)' : '';

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Some real work for the page's own bundle: what a checkout's framework does at start. */
export const APP = `(function(){var rows=[];for(var i=0;i<20000;i++){rows.push({id:i,label:'item '+i,price:(i*7)%100});}
window.total=rows.reduce(function(s,r){return s+r.price;},0);
document.getElementById('pay').addEventListener('submit',function(e){e.preventDefault();});})();`;

export function checkoutPage(fixtures: FixtureServer, sdkTag: string): string {
  const vendor = (name: string) => fixtures.url(`/bench/${name}`, 'other');
  return `<!doctype html><html><head>${sdkTag}
    <script>window.dataLayer=window.dataLayer||[];window.dataLayer.push({event:'checkout'});</script>
    <script src="${vendor('analytics.js')}" async></script>
    <script src="${vendor('payments.js')}" crossorigin="anonymous"></script>
    <script src="${vendor('chat.js')}" defer></script>
    </head><body>
    <form id="pay"><input name="name" autocomplete="cc-name"><input id="cc" name="cardnumber" autocomplete="cc-number">
    <input name="exp" autocomplete="cc-exp"><input name="cvv" autocomplete="cc-csc"><input name="cpf"><button>Pagar</button></form>
    <iframe src="${vendor('frame.html')}" width="300" height="150"></iframe>
    <script src="/bench/app.js"></script>
    <script>setTimeout(function(){var s=document.createElement('script');s.src='${vendor('late.js')}';document.head.appendChild(s);},100);</script>
    </body></html>`;
}

interface PageCost {
  scriptMs: number;
  taskMs: number;
  longTasks: number;
  /** When the page's first batch reached the service, in ms after the load event; null when none was sent. */
  batchAfterLoadMs: number | null;
}

/** The first `POST /sdk/v1/events` of the page view, from its resource timing, against the load event's end. */
const FIRST_BATCH = `(function () {
  var batch = performance.getEntriesByType('resource').filter(function (entry) { return /\\/sdk\\/v1\\/events\\?key=/.test(entry.name); })[0];
  var navigation = performance.getEntriesByType('navigation')[0];
  return batch && navigation ? batch.responseEnd - navigation.loadEventEnd : null;
})()`;

async function measure(browser: Browser, url: string): Promise<PageCost> {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    const cdp = await page.createCDPSession();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Performance.enable', CPU_TIME ? { timeDomain: 'threadTicks' } : {});
    await page.evaluateOnNewDocument(
      "window.__longTasks=0;try{new PerformanceObserver(function(l){window.__longTasks+=l.getEntries().length;}).observe({type:'longtask',buffered:true});}catch(e){}",
    );
    await page.goto(url, { waitUntil: 'load' });
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const { metrics } = await cdp.send('Performance.getMetrics');
    const metric = (name: string) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
    return {
      scriptMs: metric('ScriptDuration'),
      taskMs: metric('TaskDuration'),
      longTasks: Number(await page.evaluate('window.__longTasks')),
      batchAfterLoadMs: (await page.evaluate(FIRST_BATCH)) as number | null,
    };
  } finally {
    await context.close();
  }
}

export async function sdkPageBench(): Promise<BenchRow[]> {
  if (!chromiumFound()) throw new Error(`no Chromium at ${CHROME_PATH} (set CHROME_PATH)`);
  return withTempDir('sdk-page', async (dataDir) => {
    const service = await startEmbeddedService(dataDir, ['stores:write']);
    const fixtures = await FixtureServer.start();
    const chromium = await launchChromium();
    try {
      const created = await fetch(`${service.baseUrl}/api/v1/stores`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${service.token}` },
        body: JSON.stringify({ domain: 'bench-checkout.example.com' }),
      });
      const store = (await created.json()) as { sdk_key: string };
      for (const name of ['analytics.js', 'chat.js', 'late.js']) fixtures.script(`/bench/${name}`, `window['${name}']=1;`);
      fixtures.script('/bench/payments.js', `window.payments={tokenize:function(){return 'tok';}};`, { cors: true });
      fixtures.script('/bench/app.js', APP);
      fixtures.page('/bench/frame.html', '<p>payment frame</p>');
      const sdkTag = `<script src="${service.baseUrl}/sdk/v1/sdk.js?key=${store.sdk_key}" crossorigin="anonymous"></script>`;
      fixtures.script('/bench/floor.js', SDK_FLOOR_SCRIPT, { cors: true });
      const floorTag = `<script src="${fixtures.url('/bench/floor.js', 'other')}?key=${store.sdk_key}" data-endpoint="${service.baseUrl}/sdk/v1/" crossorigin="anonymous"></script>`;
      const withSdk = fixtures.page('/bench/with-sdk', checkoutPage(fixtures, sdkTag));
      const without = fixtures.page('/bench/without-sdk', checkoutPage(fixtures, ''));
      const withFloor = fixtures.page('/bench/with-floor', checkoutPage(fixtures, floorTag));

      await measure(chromium.browser, withSdk); // warm-up: the browser's caches, the service's first requests
      await measure(chromium.browser, without);
      await measure(chromium.browser, withFloor);
      const runs: { with: PageCost[]; without: PageCost[]; floor: PageCost[] } = { with: [], without: [], floor: [] };
      for (let i = 0; i < RUNS; i += 1) {
        // alternated, so a busy moment of the machine weighs on every side
        runs.with.push(await measure(chromium.browser, withSdk));
        runs.without.push(await measure(chromium.browser, without));
        runs.floor.push(await measure(chromium.browser, withFloor));
        log(`sdk page: run ${i + 1}/${RUNS}`);
      }
      // The window must hold the start-up work it claims to measure: a view whose first batch had not left is not one.
      const late = [...runs.with, ...runs.floor].filter((cost) => cost.batchAfterLoadMs === null);
      if (late.length) throw new Error(`${late.length} page views sent no batch within ${SETTLE_MS} ms of the load event: the window misses the SDK's work`);
      const m = (side: PageCost[], key: keyof PageCost) => median(side.map((cost) => cost[key] ?? 0));
      const least = (side: PageCost[]) => Math.min(...side.map((cost) => cost.scriptMs));
      const row = (id: string, name: string, unit: string, measured: number): BenchRow => ({
        id,
        name,
        unit,
        measured,
        baseline: null,
        higherIsBetter: false,
        baselineLabel: `the same page without the SDK, median of ${RUNS}`,
      });
      return [
        row('7a', `Checkout page script time, without the SDK (CPU 4x slower)${TIME}`, 'ms', m(runs.without, 'scriptMs')),
        row('7b', `Checkout page script time, with the SDK${TIME}`, 'ms', m(runs.with, 'scriptMs')),
        row('7c', `Script time the SDK adds per page view (budget ≤ 20 ms)${TIME}`, 'ms', m(runs.with, 'scriptMs') - m(runs.without, 'scriptMs')),
        // On a shared machine every call may wait for a core: the least disturbed views bound the SDK's own cost.
        row('7c′', `Script time the SDK adds, least disturbed views (minimum of each side)${TIME}`, 'ms', least(runs.with) - least(runs.without)),
        row('7d', `Main-thread task time the SDK adds per page view${TIME}`, 'ms', m(runs.with, 'taskMs') - m(runs.without, 'taskMs')),
        row('7e', 'Long tasks (> 50 ms) per page view, without the SDK', 'count', m(runs.without, 'longTasks')),
        row('7f', 'Long tasks (> 50 ms) per page view, with the SDK (budget: none added)', 'count', m(runs.with, 'longTasks')),
        // What the contract's network work alone costs (bench/sdk-floor.ts): the part no leaner SDK code removes.
        row('7g', `Script time the floor script adds (hooks, the hashing fetches, the HEAD, one batch; nothing else)${TIME}`, 'ms', m(runs.floor, 'scriptMs') - m(runs.without, 'scriptMs')),
        // The SDK against the floor measured in the same run: its own cost, with the noise of the bare page left out.
        row('7h', `Script time the SDK adds above the floor script${TIME}`, 'ms', m(runs.with, 'scriptMs') - m(runs.floor, 'scriptMs')),
        row('7i', 'First batch received by the service, after the load event (inside the window of each view)', 'ms', m(runs.with, 'batchAfterLoadMs')),
      ];
    } finally {
      await chromium.close();
      await fixtures.close();
      await service.close();
    }
  });
}
