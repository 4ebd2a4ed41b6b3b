import { AGENTS, CheckoutServer, type Agent } from '@pss/browser-sdk/test/checkout-fixture';
import { compareAgents, type AgentViews } from '@pss/browser-sdk/test/agent-budget';
import { chromiumFound, CHROME_PATH, launchChromium } from '@pss/browser-sdk/test/chromium';
import type { ViewCost } from '@pss/browser-sdk/test/page-cost';
import type { BenchRow } from './report';
import { log, QUICK, withTempDir } from './support';
import { startEmbeddedService } from './targets';

/**
 * Benchmark 7 (issue 35): what the SDK costs a shop's checkout beside the agents shops already run. The checkout
 * (apps/browser-sdk/test/checkout-fixture.ts: jQuery, lodash, Bootstrap, 9 hashable scripts, a card form) in
 * Chromium at 4x CPU, four pages alternated: no agent, this SDK (the store's snippet, served by the embedded
 * service), `@sentry/browser` with its defaults, web-vitals. First view (a new visitor) and repeat view (the same
 * tab again), VIEWS of each per agent. Every figure but the no-agent page's own is the median of the paired
 * differences with the no-agent page of the same round, with its interquartile range.
 */

// The issue asks at least 30 alternated views of each kind; SDK_BENCH_VIEWS sets fewer for a quick look at a change.
const VIEWS = Number(process.env.SDK_BENCH_VIEWS) || (QUICK ? 2 : 30);
const SETTLE_MS = 2_000;
// The steady cost: the first STEADY_VIEWS repeat views stay open STEADY_MS more (three rounds of the SDK's page checks).
const STEADY_MS = 6_000;
const STEADY_VIEWS = QUICK ? 1 : 8;

const LABEL: Record<Agent, string> = { none: 'no agent', sdk: 'this SDK', sentry: '@sentry/browser (defaults)', 'web-vitals': 'web-vitals' };

/** The q-quantile with linear interpolation. */
export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return sorted[low] + (sorted[Math.min(low + 1, sorted.length - 1)] - sorted[low]) * (at - low);
}

const spread = (values: number[], unit: string): string => {
  const fixed = (value: number) => (unit === 'ms' || unit === 'ms/min' ? value.toFixed(1) : Math.round(value).toLocaleString('en-US'));
  return `IQR ${fixed(quantile(values, 0.25))} to ${fixed(quantile(values, 0.75))}, ${values.length} views`;
};

type Figure = (cost: ViewCost) => number | undefined;

/** Round by round, an agent's figure minus the no-agent page's in the same round; rounds without the figure are left out. */
function paired(views: AgentViews, agent: Agent, kind: 'first' | 'repeat', figure: Figure): number[] {
  const differences: number[] = [];
  views[agent][kind].forEach((cost, round) => {
    const mine = figure(cost);
    const bare = figure(views.none[kind][round]);
    if (mine !== undefined && bare !== undefined) differences.push(mine - bare);
  });
  return differences;
}

function rows(views: AgentViews): BenchRow[] {
  const out: BenchRow[] = [];
  const row = (id: string, name: string, unit: string, values: number[], about: string) =>
    out.push({ id, name, unit, measured: quantile(values, 0.5), baseline: null, higherIsBetter: false, baselineLabel: `${about}; ${spread(values, unit)}` });
  const figures: Array<[string, string, string, Figure]> = [
    ['cpu', 'main-thread CPU added (TaskDuration, threadTicks)', 'ms', (cost) => cost.taskMs],
    ['script', 'script time added (ScriptDuration, threadTicks)', 'ms', (cost) => cost.scriptMs],
    ['long', 'long tasks added (> 50 ms)', 'count', (cost) => cost.longTasks],
    ['lcp', 'LCP added', 'ms', (cost) => cost.lcpMs ?? undefined],
    ['inp', 'INP added (click and typing into the card field)', 'ms', (cost) => cost.inpMs],
    ['down', 'bytes received added', 'bytes', (cost) => cost.bytesDown],
    ['up', 'bytes sent added', 'bytes', (cost) => cost.bytesUp],
  ];
  const pairedWith = 'median of paired differences with the no-agent page';
  for (const kind of ['first', 'repeat'] as const) {
    const view = kind === 'first' ? 'First view' : 'Repeat view';
    const prefix = kind === 'first' ? '7f' : '7r';
    const bare = views.none[kind];
    row(`${prefix}0`, `${view}, no agent: main-thread CPU`, 'ms', bare.map((cost) => cost.taskMs), 'the page alone');
    row(`${prefix}0`, `${view}, no agent: long tasks`, 'count', bare.map((cost) => cost.longTasks), 'the page alone');
    row(`${prefix}0`, `${view}, no agent: LCP`, 'ms', bare.flatMap((cost) => (cost.lcpMs === null ? [] : [cost.lcpMs])), 'the page alone');
    row(`${prefix}0`, `${view}, no agent: INP`, 'ms', bare.map((cost) => cost.inpMs), 'the page alone');
    for (const [code, what, unit, figure] of figures) {
      for (const agent of AGENTS.filter((a) => a !== 'none')) row(`${prefix}-${code}`, `${view}, ${LABEL[agent]}: ${what}`, unit, paired(views, agent, kind, figure), pairedWith);
    }
  }
  for (const agent of AGENTS.filter((a) => a !== 'none')) {
    row('7s', `Page left open, ${LABEL[agent]}: main-thread CPU added per minute`, 'ms/min', paired(views, agent, 'repeat', (cost) => cost.steadyTaskMsPerMinute), `${pairedWith}, over ${STEADY_MS / 1000} s after the repeat view settled`);
    row('7s', `Page left open, ${LABEL[agent]}: script time added per minute`, 'ms/min', paired(views, agent, 'repeat', (cost) => cost.steadyScriptMsPerMinute), `${pairedWith}, over ${STEADY_MS / 1000} s after the repeat view settled`);
  }
  return out;
}

export async function sdkPageBench(): Promise<BenchRow[]> {
  if (!chromiumFound()) throw new Error(`no Chromium at ${CHROME_PATH} (set CHROME_PATH)`);
  return withTempDir('sdk-page', async (dataDir) => {
    const service = await startEmbeddedService(dataDir, ['stores:write']);
    const checkout = await CheckoutServer.start();
    const chromium = await launchChromium();
    try {
      // A staging store: its pages may be on 127.0.0.1 (a production store takes page views from its domain only).
      const created = await fetch(`${service.baseUrl}/api/v1/stores`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${service.token}` },
        body: JSON.stringify({ domain: 'bench-checkout.example.com', environment: 'staging' }),
      });
      const store = (await created.json()) as { snippets: { html: string } };
      // The snippet names the service's PUBLIC_URL, set before the service chose its port: the port it listens on.
      const pages = await checkout.prepare(store.snippets.html.split('http://localhost:0/').join(`${service.baseUrl}/`));
      // Warm-up, not counted: the service builds the store's sdk.js, Chromium starts its processes.
      await compareAgents(chromium.browser, pages, { views: 1, settleMs: SETTLE_MS, steadyMs: 0, steadyViews: 0 });
      const views = await compareAgents(chromium.browser, pages, { views: VIEWS, settleMs: SETTLE_MS, steadyMs: STEADY_MS, steadyViews: STEADY_VIEWS, log });
      // The window must hold the start-up work it claims to measure: a view whose first batch had not left is not one.
      const late = [...views.sdk.first, ...views.sdk.repeat].filter((cost) => !cost.sdkBatchSent).length;
      if (late) throw new Error(`${late} SDK page views sent no batch within ${SETTLE_MS} ms of the typing: the window misses the SDK's work`);
      return rows(views);
    } finally {
      await chromium.close();
      await checkout.close();
      await service.close();
    }
  });
}
