import type { BrowserContext, CDPSession, Page } from 'puppeteer-core';

/** What one page view cost the page, measured from outside (CDP) and by observers the page itself runs. */
export interface ViewCost {
  /** Main-thread CPU time (CDP `threadTicks`): every task, and the script within them. */
  taskMs: number;
  scriptMs: number;
  /** Tasks over 50 ms (PerformanceObserver `longtask`). */
  longTasks: number;
  /** Largest contentful paint, after navigation start. */
  lcpMs: number | null;
  /** The longest interaction of the view (the click and the typing), as INP counts it; 0 when none reached 16 ms. */
  inpMs: number;
  /** Bytes received (encoded, headers included) and request bodies sent during the view. */
  bytesDown: number;
  bytesUp: number;
  /** Main-thread CPU a minute while the page stays open after the view settled, when asked for. */
  steadyTaskMsPerMinute?: number;
  steadyScriptMsPerMinute?: number;
  /** Whether the SDK's first batch left within the view (resource timing of its `POST /sdk/v1/events`). */
  sdkBatchSent: boolean;
}

/**
 * Installed before any of the page's scripts: counts long tasks, keeps the last LCP candidate and the longest
 * interaction (event timing entries with an interaction id), the same on every page so it cancels in the
 * paired difference.
 */
const OBSERVERS = `window.__cost={longTasks:0,lcp:null,inp:0};
try{new PerformanceObserver(function(l){__cost.longTasks+=l.getEntries().length}).observe({type:'longtask',buffered:true})}catch(e){}
try{new PerformanceObserver(function(l){var e=l.getEntries();__cost.lcp=e[e.length-1].startTime}).observe({type:'largest-contentful-paint',buffered:true})}catch(e){}
try{new PerformanceObserver(function(l){l.getEntries().forEach(function(e){if(e.interactionId&&e.duration>__cost.inp)__cost.inp=e.duration})}).observe({type:'event',buffered:true,durationThreshold:16})}catch(e){}`;

const SDK_BATCH = `performance.getEntriesByType('resource').some(function (entry) { return /\\/sdk\\/v1\\/events\\?key=/.test(entry.name); })`;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A shopper's tab at 4x CPU throttling: its first view, then a repeat view of the same page in the same tab. */
export class ShopperTab {
  private bytesDown = 0;
  private bytesUp = 0;

  private constructor(
    readonly page: Page,
    private readonly cdp: CDPSession,
  ) {}

  static async open(context: BrowserContext): Promise<ShopperTab> {
    const page = await context.newPage();
    const cdp = await page.createCDPSession();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    await cdp.send('Network.enable');
    await page.evaluateOnNewDocument(OBSERVERS);
    const tab = new ShopperTab(page, cdp);
    cdp.on('Network.loadingFinished', (event) => (tab.bytesDown += event.encodedDataLength));
    cdp.on('Network.requestWillBeSent', (event) => (tab.bytesUp += event.request.postData ? Buffer.byteLength(event.request.postData) : 0));
    return tab;
  }

  /**
   * Opens `url`, and once it has loaded clicks the card field and types a card number (the interaction INP
   * reads), then leaves the page `settleMs` to do its start-up work (the SDK's scan, hashing and first batch).
   * With `steadyMs`, the page then stays open that long more and its CPU over that time is the steady cost.
   */
  async view(url: string, { settleMs, steadyMs }: { settleMs: number; steadyMs?: number }): Promise<ViewCost> {
    this.bytesDown = 0;
    this.bytesUp = 0;
    await this.page.goto(url, { waitUntil: 'load' });
    await this.page.click('#cc');
    await this.page.type('#cc', '4111111111111111');
    await wait(settleMs);
    const settled = await this.metrics();
    const observed = (await this.page.evaluate('window.__cost')) as { longTasks: number; lcp: number | null; inp: number };
    const cost: ViewCost = {
      taskMs: settled.task,
      scriptMs: settled.script,
      longTasks: observed.longTasks,
      lcpMs: observed.lcp,
      inpMs: observed.inp,
      bytesDown: this.bytesDown,
      bytesUp: this.bytesUp,
      sdkBatchSent: (await this.page.evaluate(SDK_BATCH)) as boolean,
    };
    if (steadyMs) {
      await wait(steadyMs);
      const after = await this.metrics();
      cost.steadyTaskMsPerMinute = ((after.task - settled.task) * 60_000) / steadyMs;
      cost.steadyScriptMsPerMinute = ((after.script - settled.script) * 60_000) / steadyMs;
    }
    return cost;
  }

  /** Since the document started, in ms: Chromium counts them per document, from 0 at each navigation. */
  private async metrics(): Promise<{ task: number; script: number }> {
    const { metrics } = await this.cdp.send('Performance.getMetrics');
    const metric = (name: string) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
    return { task: metric('TaskDuration'), script: metric('ScriptDuration') };
  }
}
