import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { SCRIPT_STATUSES, SCRIPT_TYPES, SCRIPTS } from '@pss/contracts';
import type { RecordedEvent } from '@pss/event-store';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { ScriptProjection } from '@pss/inventory/src/scripts/script.projection';
import type { ScriptEvent } from '@pss/inventory/src/scripts/script.events';
import type { BenchRow } from './report';
import {
  bestOfRounds,
  CONNECTIONS,
  MANY_CONNECTIONS,
  portOf,
  ROUNDS,
  SECONDS,
  startEmbeddedService,
  WARM_UP_SECONDS,
  type EmbeddedService,
  type Target,
} from './targets';
import { log, QUICK, withTempDir } from './support';

/**
 * Benchmark 3: authenticated reads on the whole embedded service (Nest on Fastify, bearer token checked against
 * the `api_tokens` read model, rate limiter, scope guard, query validation, pagination over the memory read
 * store), each against a bare Fastify route answering the same JSON body:
 * (a) `GET /api/v1/stores` of an organization with a few stores;
 * (b) `GET /api/v1/scripts?store_id=…&status=…&type=…` on a store holding 10,000 scripts (one page of 50).
 * Both servers listen on 127.0.0.1 (ephemeral ports) in this process and are driven by the same autocannon
 * settings from a child process, at 10 and at 50 connections, so the load generator has the other core. Never
 * both under load at once. The bare routes return the page as an object, so Fastify serializes it per request
 * as it would any route's answer; the bytes are checked identical before measuring.
 */

const STORES = 5;
const SCRIPTS_IN_STORE = QUICK ? 1_000 : 10_000;
const SCRIPT_FILTER = { status: 'needs_review', type: 'unknown' } as const;

export async function call(service: EmbeddedService, method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { authorization: `Bearer ${service.token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const answer = await fetch(`${service.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: answer.status, text: await answer.text() };
}

export async function createStores(service: EmbeddedService): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 0; n < STORES; n += 1) {
    const created = await call(service, 'POST', '/api/v1/stores', {
      domain: `shop-${n}.bench.example.com`,
      name: `Bench shop ${n}`,
      payment_pages: [{ url_pattern: '/checkout/*', payment_methods: ['card', 'pix'] }],
    });
    if (created.status !== 201) throw new Error(`store creation answered ${created.status} ${created.text}`);
    ids.push((JSON.parse(created.text) as { id: string }).id);
  }
  return ids;
}

/**
 * 10,000 scripts in one store, written by the inventory's own `ScriptProjection` from `ScriptDetected` events, so
 * the documents are exactly the ones the SDK path makes, in a second instead of 10,000 SDK observations (and no
 * policy decisions running in the background while the benchmark measures). A mix of statuses and types, so
 * the filter keeps about one script in eighteen.
 */
export async function seedScripts(service: EmbeddedService, orgId: string, storeId: string): Promise<void> {
  const projection = service.app.get(ScriptProjection);
  const readStore = service.app.get<ReadStore>(READ_STORE);
  const context = { collection: readStore.collection.bind(readStore) };
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  for (let n = 0; n < SCRIPTS_IN_STORE; n += 1) {
    const scriptId = randomUUID();
    const data: Extract<ScriptEvent, { type: 'ScriptDetected' }>['data'] = {
      scriptId,
      storeId,
      orgId,
      src: `https://cdn${n % 7}.vendor-${n % 40}.example.net/js/widget-${n}.js`,
      inline: false,
      host: `cdn${n % 7}.vendor-${n % 40}.example.net`,
      type: SCRIPT_TYPES[Math.floor(n / SCRIPT_STATUSES.length) % SCRIPT_TYPES.length],
      vendorId: null,
      category: n % 3 === 0 ? 'analytics' : null,
      status: SCRIPT_STATUSES[n % SCRIPT_STATUSES.length],
      gtmContainer: null,
      pageUrl: 'https://shop-0.bench.example.com/checkout/pay',
      sessionId: `session-${n % 100}`,
      detectedAt: new Date(start + n * 1000).toISOString(),
      hash: `sha384-${Buffer.from(`script ${n}`).toString('base64')}`,
      sriHash: null,
      hashSource: 'sdk',
      integrityAttr: false,
      sizeBytes: 1000 + n,
    };
    const recorded: RecordedEvent = {
      id: randomUUID(),
      stream: `script-${scriptId}`,
      revision: 0,
      position: n + 1,
      type: 'ScriptDetected',
      data,
      metadata: { orgId, actor: 'sdk' },
      createdAt: data.detectedAt,
    };
    await projection.handle(recorded, context);
  }
  const held = await readStore.collection(SCRIPTS).count({ store_id: storeId });
  if (held !== SCRIPTS_IN_STORE) throw new Error(`the store holds ${held} scripts, expected ${SCRIPTS_IN_STORE}`);
}

interface Endpoint {
  id: string;
  path: string;
  title: string;
  /** The service's answer, parsed: the bare route returns it. */
  body: unknown;
}

/** The baseline: Fastify alone, one route per endpoint answering the same object (so the same bytes). */
async function bareFastify(endpoints: Endpoint[]): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const server = Fastify({ logger: false });
  for (const endpoint of endpoints) server.get(endpoint.path.split('?')[0], async () => endpoint.body);
  await server.listen({ host: '127.0.0.1', port: 0 });
  return { baseUrl: `http://127.0.0.1:${portOf(server.server.address())}`, close: () => server.close() };
}

/** Checks both answers first: a fast 401, or a different body, is no benchmark. */
async function checkSameBody(service: Target, bare: Target): Promise<void> {
  const [ours, raw] = await Promise.all([service, bare].map(async (target) => {
    const answer = await fetch(target.url, { headers: target.headers });
    return { status: answer.status, text: await answer.text() };
  }));
  if (ours.status !== 200 || raw.status !== 200 || ours.text !== raw.text) {
    throw new Error(`${service.url} answered ${ours.status} ${ours.text.slice(0, 200)}, the bare route ${raw.status} ${raw.text.slice(0, 200)}`);
  }
}

async function measure(service: EmbeddedService, bareUrl: string, endpoint: Endpoint, connections: number): Promise<BenchRow[]> {
  const embedded: Target = { label: `embedded ${endpoint.id} ×${connections}`, url: `${service.baseUrl}${endpoint.path}`, headers: { authorization: `Bearer ${service.token}` }, connections };
  const bare: Target = { label: `bare Fastify ${endpoint.id} ×${connections}`, url: `${bareUrl}${endpoint.path}`, headers: {}, connections };
  await checkSameBody(embedded, bare);
  const best = await bestOfRounds([bare, embedded]);
  const ours = best.get(embedded)!;
  const raw = best.get(bare)!;
  const name = `${endpoint.title} (${connections} connections, best of ${ROUNDS} × ${SECONDS} s, each after ${WARM_UP_SECONDS} s warm-up)`;
  const baselineLabel = 'bare Fastify route, same JSON body';
  return [
    { id: endpoint.id, name, unit: 'req/s', measured: ours.requestsPerSecond, baseline: raw.requestsPerSecond, higherIsBetter: true, baselineLabel },
    { id: endpoint.id, name: `${name}, p99 latency`, unit: 'ms', measured: ours.p99Ms, baseline: raw.p99Ms, higherIsBetter: false, baselineLabel },
  ];
}

export async function httpBench(): Promise<BenchRow[]> {
  return withTempDir('http', async (dataDir) => {
    const service = await startEmbeddedService(dataDir, ['stores:read', 'stores:write', 'scripts:read']);
    try {
      const storeIds = await createStores(service);
      const orgId = (JSON.parse((await call(service, 'GET', `/api/v1/stores/${storeIds[0]}`)).text) as { org_id: string }).org_id;
      await seedScripts(service, orgId, storeIds[0]);
      log(`http: ${STORES} stores, ${SCRIPTS_IN_STORE} scripts in the first`);
      const scriptsPath = `/api/v1/scripts?store_id=${storeIds[0]}&status=${SCRIPT_FILTER.status}&type=${SCRIPT_FILTER.type}`;
      const endpoints: Endpoint[] = [];
      for (const [id, path, title] of [
        ['3a', '/api/v1/stores', `Authenticated \`GET /api/v1/stores\` (${STORES} stores)`],
        ['3b', scriptsPath, `Authenticated \`GET /api/v1/scripts?store_id&status&type\` (a page of 50 of a store's ${SCRIPTS_IN_STORE.toLocaleString('en-US')} scripts)`],
      ]) {
        const answer = await call(service, 'GET', path);
        if (answer.status !== 200) throw new Error(`${path} answered ${answer.status} ${answer.text}`);
        endpoints.push({ id, path, title, body: JSON.parse(answer.text) });
      }
      const bare = await bareFastify(endpoints);
      try {
        const rows: BenchRow[] = [];
        for (const endpoint of endpoints) {
          for (const connections of [CONNECTIONS, MANY_CONNECTIONS]) rows.push(...(await measure(service, bare.baseUrl, endpoint, connections)));
        }
        return rows;
      } finally {
        await bare.close();
      }
    } finally {
      await service.close();
    }
  });
}
