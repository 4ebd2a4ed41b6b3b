import type { Browser } from 'puppeteer-core';
import { AGENTS, type Agent } from './checkout-fixture';
import { ShopperTab, type ViewCost } from './page-cost';

/** How the agents are compared (benchmark 7, `npm run bench -- sdk`; its spec runs it with few views). */
export interface BudgetPlan {
  /** Views of each kind per agent. */
  views: number;
  /** How long a view is left to its start-up work after the typing. */
  settleMs: number;
  /** How long the first `steadyViews` repeat views stay open for the steady cost. */
  steadyMs: number;
  steadyViews: number;
  log?: (message: string) => void;
}

/** Each agent's first and repeat views, in the order they ran: view i of one agent pairs with view i of another. */
export type AgentViews = Record<Agent, { first: ViewCost[]; repeat: ViewCost[] }>;

/**
 * The checkout page with each agent, `views` times: each time, for each agent, a new visitor (a fresh browser
 * context: empty HTTP cache and storage) opens the page (first view) and opens it again in the same tab (repeat
 * view: the tab's cache and sessionStorage). The agents take turns, starting with a different one each round,
 * so a busy moment of the shared machine weighs on all alike and the paired differences cancel it.
 */
export async function compareAgents(browser: Browser, pages: Record<Agent, string>, plan: BudgetPlan): Promise<AgentViews> {
  const views = {} as AgentViews;
  for (const agent of AGENTS) views[agent] = { first: [], repeat: [] };
  for (let round = 0; round < plan.views; round += 1) {
    const order = AGENTS.map((_, i) => AGENTS[(i + round) % AGENTS.length]);
    for (const agent of order) {
      const context = await browser.createBrowserContext();
      try {
        const tab = await ShopperTab.open(context);
        views[agent].first.push(await tab.view(pages[agent], { settleMs: plan.settleMs }));
        const steadyMs = round < plan.steadyViews ? plan.steadyMs : undefined;
        views[agent].repeat.push(await tab.view(pages[agent], { settleMs: plan.settleMs, steadyMs }));
      } finally {
        await context.close();
      }
    }
    plan.log?.(`sdk budget: round ${round + 1}/${plan.views}`);
  }
  return views;
}
