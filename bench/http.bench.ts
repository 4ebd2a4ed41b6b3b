import Fastify from 'fastify';
import type { BenchRow } from './report';
import { bestOfRounds, CONNECTIONS, portOf, ROUNDS, SECONDS, startEmbeddedService, WARM_UP_SECONDS, type Target } from './targets';
import { withTempDir } from './support';

/**
 * Benchmark 3: authenticated `GET /api/v1/stores` on the whole embedded service (Nest on Fastify, bearer token
 * checked against the `api_tokens` read model, scope guard, validation, pagination over the memory read store),
 * against a bare Fastify route that answers the same JSON body. Both listen on 127.0.0.1 (ephemeral ports) in
 * this process and are driven by the same autocannon settings from a child process, so the load generator has
 * the other core. Never both under load at once.
 */

const BODY = '{"data":[],"next_cursor":null}';

/** Checks the answer first: a fast 401 is no benchmark. */
async function checkAnswer(target: Target): Promise<void> {
  const answer = await fetch(target.url, { headers: target.headers });
  const text = await answer.text();
  if (answer.status !== 200 || text !== BODY) throw new Error(`${target.label} answered ${answer.status} ${text}, expected 200 ${BODY}`);
}

/** The baseline: Fastify alone, one route answering the same bytes. */
async function bareFastify(): Promise<{ target: Target; close: () => Promise<void> }> {
  const server = Fastify({ logger: false });
  server.get('/api/v1/stores', async () => ({ data: [], next_cursor: null }));
  await server.listen({ host: '127.0.0.1', port: 0 });
  const target = { label: 'bare Fastify', url: `http://127.0.0.1:${portOf(server.server.address())}/api/v1/stores`, headers: {} };
  return { target, close: () => server.close() };
}

export async function httpBench(): Promise<BenchRow[]> {
  return withTempDir('http', async (dataDir) => {
    const bare = await bareFastify();
    const service = await startEmbeddedService(dataDir, ['stores:read']).catch(async (error) => {
      await bare.close();
      throw error;
    });
    try {
      const embedded: Target = { label: 'embedded service', url: `${service.baseUrl}/api/v1/stores`, headers: { authorization: `Bearer ${service.token}` } };
      for (const target of [bare.target, embedded]) await checkAnswer(target);
      const best = await bestOfRounds([bare.target, embedded]);
      const ours = best.get(embedded)!;
      const raw = best.get(bare.target)!;
      const name = `Authenticated \`GET /api/v1/stores\` (${CONNECTIONS} connections, best of ${ROUNDS} × ${SECONDS} s, each after ${WARM_UP_SECONDS} s warm-up)`;
      const baselineLabel = 'bare Fastify route, same JSON body';
      return [
        { id: '3', name, unit: 'req/s', measured: ours.requestsPerSecond, baseline: raw.requestsPerSecond, higherIsBetter: true, baselineLabel },
        { id: '3', name: `${name}, p99 latency`, unit: 'ms', measured: ours.p99Ms, baseline: raw.p99Ms, higherIsBetter: false, baselineLabel },
      ];
    } finally {
      await service.close();
      await bare.close();
    }
  });
}
