import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Fastify from 'fastify';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@pss/config';
import { createServiceApp } from '@pss/host';
import { OpsRegistry } from '@pss/ops';
import { EMBEDDED_MODULES } from '../apps/embedded/src/embedded.modules';
import type { LoadRequest, LoadResult } from './load-generator';
import type { BenchRow } from './report';
import { collectGarbage, log, QUICK, withTempDir } from './support';

/**
 * Benchmark 3: authenticated `GET /api/v1/stores` on the whole embedded service (Nest on Fastify, bearer token
 * checked against the `api_tokens` read model, scope guard, validation, pagination over the memory read store),
 * against a bare Fastify route that answers the same JSON body. Both listen on 127.0.0.1 (ephemeral ports) in
 * this process and are driven by the same autocannon settings from a child process, so the load generator has
 * the other core. Never both under load at once.
 */

const BODY = '{"data":[],"next_cursor":null}';
const CONNECTIONS = 10;
const WARM_UP_SECONDS = QUICK ? 1 : 2;
const SECONDS = QUICK ? 2 : 4;
/** Rounds alternate bare and embedded, so a neighbour's burst of CPU on this shared machine hits both alike. */
const ROUNDS = QUICK ? 1 : 3;
const REGISTER = join(__dirname, '..', 'tools', 'register.js');
const LOAD_GENERATOR = join(__dirname, 'load-generator.ts');

/** Warm-up then measurement in the load-generator child process; refused when any request failed. */
function autocannon(url: string, headers: Record<string, string>): Promise<LoadResult> {
  const request: LoadRequest = { url, connections: CONNECTIONS, warmUpSeconds: WARM_UP_SECONDS, seconds: SECONDS, headers };
  const timeout = (WARM_UP_SECONDS + SECONDS + 60) * 1000;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-r', REGISTER, LOAD_GENERATOR, JSON.stringify(request)], { timeout, maxBuffer: 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`load generator failed: ${error.message}\n${stderr}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as LoadResult);
    });
  });
}

/** Checks the answer first: a fast 401 is no benchmark. */
async function checkAnswer(label: string, url: string, headers: Record<string, string>): Promise<void> {
  const answer = await fetch(url, { headers });
  const text = await answer.text();
  if (answer.status !== 200 || text !== BODY) throw new Error(`${label} answered ${answer.status} ${text}, expected 200 ${BODY}`);
}

const portOf = (address: AddressInfo | string | null): number => {
  if (!address || typeof address === 'string') throw new Error(`unexpected server address ${String(address)}`);
  return address.port;
};

interface Target {
  label: string;
  url: string;
  headers: Record<string, string>;
}

/** The baseline: Fastify alone, one route answering the same bytes. */
async function bareFastify(): Promise<{ target: Target; close: () => Promise<void> }> {
  const server = Fastify({ logger: false });
  server.get('/api/v1/stores', async () => ({ data: [], next_cursor: null }));
  await server.listen({ host: '127.0.0.1', port: 0 });
  const target = { label: 'bare Fastify', url: `http://127.0.0.1:${portOf(server.server.address())}/api/v1/stores`, headers: {} };
  return { target, close: () => server.close() };
}

/** The whole embedded service on a fresh data directory, with an organization and a `stores:read` token. */
async function embeddedService(dataDir: string): Promise<{ target: Target; close: () => Promise<void> }> {
  // The per-token rate limit stays in the pipeline (its cost is measured) but is raised so it never answers 429,
  // as the test harness does: this measures the cost of a request, not the configured allowance.
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error', HOST: '127.0.0.1', PORT: '0', RATE_LIMIT_PER_MINUTE: '1000000000' });
  const app: NestFastifyApplication = await createServiceApp({ name: 'bench', modules: EMBEDDED_MODULES, config });
  try {
    await app.listen(0, '127.0.0.1');
    const ops = app.get(OpsRegistry);
    const org = (await ops.run('org.create', { name: 'Bench Checkout', 'owner-email': 'owner@bench.example' })) as { id: string };
    const issued = (await ops.run('token.create', { org: org.id, name: 'bench', scopes: 'stores:read' })) as { token: string };
    const url = `http://127.0.0.1:${portOf(app.getHttpServer().address())}/api/v1/stores`;
    return { target: { label: 'embedded service', url, headers: { authorization: `Bearer ${issued.token}` } }, close: () => app.close() };
  } catch (error) {
    await app.close();
    throw error;
  }
}

export async function httpBench(): Promise<BenchRow[]> {
  return withTempDir('http', async (dataDir) => {
    const bare = await bareFastify();
    let embedded: Awaited<ReturnType<typeof embeddedService>> | undefined;
    try {
      embedded = await embeddedService(dataDir);
      const results = new Map<Target, LoadResult[]>([[bare.target, []], [embedded.target, []]]);
      for (const target of results.keys()) await checkAnswer(target.label, target.url, target.headers);
      for (let round = 1; round <= ROUNDS; round += 1) {
        for (const [target, runs] of results) {
          collectGarbage();
          const run = await autocannon(target.url, target.headers);
          runs.push(run);
          log(`${target.label}, round ${round}: ${Math.round(run.requestsPerSecond)} req/s, p50 ${run.p50Ms.toFixed(2)} ms, p99 ${run.p99Ms.toFixed(2)} ms (${run.total} requests)`);
        }
      }
      // The best round of each (its p99 with it): the one least disturbed by whatever else ran on the machine.
      const best = (runs: LoadResult[]) => runs.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
      const ours = best(results.get(embedded.target)!);
      const raw = best(results.get(bare.target)!);
      const name = `Authenticated \`GET /api/v1/stores\` (${CONNECTIONS} connections, best of ${ROUNDS} × ${SECONDS} s, each after ${WARM_UP_SECONDS} s warm-up)`;
      const baselineLabel = 'bare Fastify route, same JSON body';
      return [
        { id: '3', name, unit: 'req/s', measured: ours.requestsPerSecond, baseline: raw.requestsPerSecond, higherIsBetter: true, baselineLabel },
        { id: '3', name: `${name}, p99 latency`, unit: 'ms', measured: ours.p99Ms, baseline: raw.p99Ms, higherIsBetter: false, baselineLabel },
      ];
    } finally {
      await embedded?.close();
      await bare.close();
    }
  });
}
