import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { DynamicModule, Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@pss/config';
import { createServiceApp } from '@pss/host';
import { OpsRegistry } from '@pss/ops';
import { EMBEDDED_MODULES } from '@pss/embedded/src/embedded.modules';
import type { LoadRequest, LoadResult } from './load-generator';
import { collectGarbage, log, QUICK } from './support';

/** What the HTTP benchmarks drive: the whole embedded service, or a bare Fastify baseline, over loopback. */
export interface Target {
  label: string;
  url: string;
  headers: Record<string, string>;
  method?: string;
  body?: string;
  /** CONNECTIONS when omitted. */
  connections?: number;
}

export const CONNECTIONS = 10;
/** The issue's second load level: many shops' pages at once. */
export const MANY_CONNECTIONS = 50;
export const WARM_UP_SECONDS = QUICK ? 1 : 2;
export const SECONDS = QUICK ? 2 : 4;
/** Rounds alternate the targets, so a neighbour's burst of CPU on this shared machine hits both alike. */
export const ROUNDS = QUICK ? 1 : 3;
const REGISTER = join(__dirname, '..', 'tools', 'register.js');
const LOAD_GENERATOR = join(__dirname, 'load-generator.ts');

/** Warm-up then measurement in the load-generator child process (its own core); refused when any request failed. */
function load(target: Target): Promise<LoadResult> {
  const request: LoadRequest = {
    url: target.url,
    headers: target.headers,
    method: target.method,
    body: target.body,
    connections: target.connections ?? CONNECTIONS,
    warmUpSeconds: WARM_UP_SECONDS,
    seconds: SECONDS,
  };
  const timeout = (WARM_UP_SECONDS + SECONDS + 60) * 1000;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-r', REGISTER, LOAD_GENERATOR, JSON.stringify(request)], { timeout, maxBuffer: 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`load generator failed: ${error.message}\n${stderr}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as LoadResult);
    });
  });
}

/** Every target for ROUNDS rounds, taking turns; the best round of each, the one least disturbed by neighbours. */
export async function bestOfRounds(targets: Target[]): Promise<Map<Target, LoadResult>> {
  const runs = new Map<Target, LoadResult[]>(targets.map((target) => [target, []]));
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const [target, results] of runs) {
      collectGarbage();
      const run = await load(target);
      results.push(run);
      log(`${target.label}, round ${round}: ${Math.round(run.requestsPerSecond)} req/s, p50 ${run.p50Ms.toFixed(2)} ms, p99 ${run.p99Ms.toFixed(2)} ms (${run.total} requests)`);
    }
  }
  const best = (results: LoadResult[]) => results.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
  return new Map([...runs].map(([target, results]) => [target, best(results)]));
}

export const portOf = (address: AddressInfo | string | null): number => {
  if (!address || typeof address === 'string') throw new Error(`unexpected server address ${String(address)}`);
  return address.port;
};

export interface EmbeddedService {
  app: NestFastifyApplication;
  baseUrl: string;
  token: string;
  close(): Promise<void>;
}

/**
 * The whole embedded service on a fresh data directory, listening on loopback, with an organization and a token.
 * `extraModules` come after the embedded ones (a benchmark's own settings, e.g. higher new-script limits).
 */
export async function startEmbeddedService(dataDir: string, scopes: string[], extraModules: Array<Type | DynamicModule> = []): Promise<EmbeddedService> {
  // Rate limits stay in the pipeline (their cost is measured) but are raised so they never answer 429, as the
  // test harness does: this measures the cost of a request, not the configured allowance.
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    HOST: '127.0.0.1',
    PORT: '0',
    RATE_LIMIT_PER_MINUTE: '1000000000',
    SDK_RATE_LIMIT_PER_MINUTE: '1000000000',
  });
  const app: NestFastifyApplication = await createServiceApp({ name: 'bench', modules: [...EMBEDDED_MODULES, ...extraModules], config });
  try {
    await app.listen(0, '127.0.0.1');
    const ops = app.get(OpsRegistry);
    const org = (await ops.run('org.create', { name: 'Bench Checkout', plan: 'enterprise', 'owner-email': 'owner@bench.example' })) as { id: string };
    const issued = (await ops.run('token.create', { org: org.id, name: 'bench', scopes: scopes.join(',') })) as { token: string };
    return { app, baseUrl: `http://127.0.0.1:${portOf(app.getHttpServer().address())}`, token: issued.token, close: () => app.close() };
  } catch (error) {
    await app.close();
    throw error;
  }
}
