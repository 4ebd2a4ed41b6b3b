import { createHash } from 'node:crypto';
import { Agent, request } from 'node:http';

/**
 * SDK traffic for the soak, in its own process so the service's memory is measured alone (`node -r
 * ./tools/register.js bench/sdk-traffic.ts '<json>'`): shoppers posting page views of each store's known scripts,
 * round robin over the stores, and forged SDKs posting batches of never-seen scripts to one store. Prints a JSON
 * line `{"observations": n}` at each milestone and a summary line when `seconds` have passed.
 */
export interface TrafficPlan {
  baseUrl: string;
  keys: string[];
  scriptsPerPage: number;
  shoppers: number;
  forgers: number;
  floodKey: string;
  seconds: number;
  /** Observations after which a `{"milestone": …}` line is printed. */
  milestones: number[];
}

export interface TrafficSummary {
  batches: number;
  observations: number;
  flood: { accepted: number; refused: number; other: number };
  failures: number;
}

const sri = (content: string) => `sha384-${createHash('sha384').update(content).digest('base64')}`;

async function main(): Promise<void> {
  const plan = JSON.parse(process.argv[2]) as TrafficPlan;
  const agent = new Agent({ keepAlive: true, maxSockets: plan.shoppers + plan.forgers });
  // Each store's own page: the edge remembers every store's scripts, as with real shops.
  const pages = plan.keys.map((key, store) =>
    Array.from({ length: plan.scriptsPerPage }, (_, n) => ({ kind: 'script', src: `https://cdn-${store % 50}.example.com/s${store}/lib-${n}.js?v=3`, hash: sri(`store ${store} lib ${n}`) })),
  );
  /** Not an HTTP status: a 202 that recorded nothing, every observation rejected. */
  const REFUSED_ONE_BY_ONE = -202;
  const summary: TrafficSummary = { batches: 0, observations: 0, flood: { accepted: 0, refused: 0, other: 0 }, failures: 0 };
  const milestones = [...plan.milestones].sort((a, b) => a - b);
  const deadline = performance.now() + plan.seconds * 1000;
  /** The status, and whether a 202 recorded anything (past a store's budget, every new script is rejected). */
  const post = (key: string, body: unknown) =>
    new Promise<number>((resolve, reject) => {
      const sent = request(`${plan.baseUrl}/sdk/v1/events?key=${key}`, { method: 'POST', agent, headers: { 'content-type': 'text/plain' } }, (answer) => {
        let text = '';
        answer.on('data', (chunk: Buffer) => (text += chunk));
        answer.on('end', () => resolve(answer.statusCode === 202 && /"accepted":0\b/.test(text) && !/"rejected":0\b/.test(text) ? REFUSED_ONE_BY_ONE : answer.statusCode ?? 0));
      });
      sent.on('error', reject);
      sent.end(JSON.stringify(body));
    });
  let next = 0;
  const shopper = async (id: number) => {
    for (let view = 0; performance.now() < deadline; view += 1) {
      const store = next++ % plan.keys.length;
      const status = await post(plan.keys[store], { page_url: `https://shop-${store}.example.com/checkout`, session_id: `shopper-${id}-${view}`, sdk_version: '1.0.0', observations: pages[store] });
      if (status !== 202) summary.failures += 1;
      summary.batches += 1;
      summary.observations += plan.scriptsPerPage;
      while (milestones.length && summary.observations >= milestones[0]) process.stdout.write(`${JSON.stringify({ milestone: milestones.shift() })}\n`);
    }
  };
  let forged = 0;
  const forger = async (id: number) => {
    while (performance.now() < deadline) {
      const observations = Array.from({ length: 50 }, () => ({ kind: 'script', src: `https://forged-${id}.example.net/s${forged}.js`, hash: sri(`forged ${forged++}`) }));
      const status = await post(plan.floodKey, { page_url: 'https://flood.example.com/checkout', session_id: `forged-${id}`, sdk_version: '1.0.0', observations });
      if (status === 202) summary.flood.accepted += 1;
      else if (status === 429 || status === REFUSED_ONE_BY_ONE) summary.flood.refused += 1;
      else summary.flood.other += 1;
    }
  };
  await Promise.all([...Array.from({ length: plan.shoppers }, (_, id) => shopper(id)), ...Array.from({ length: plan.forgers }, (_, id) => forger(id))]);
  agent.destroy();
  process.stdout.write(`${JSON.stringify({ summary })}\n`);
}

if (require.main === module) {
  main().catch((error: Error) => {
    process.stderr.write(`${error.stack ?? error.message}\n`);
    process.exit(1);
  });
}
