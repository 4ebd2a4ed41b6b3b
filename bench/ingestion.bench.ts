import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import type { BenchRow } from './report';
import { bestOfRounds, CONNECTIONS, MANY_CONNECTIONS, portOf, ROUNDS, SECONDS, startEmbeddedService, WARM_UP_SECONDS, type EmbeddedService, type Target } from './targets';
import { log, QUICK, withTempDir } from './support';

/**
 * Benchmark 4 (SDK ingestion): (a) batches of 20 observations of already-known scripts posted to
 * `/sdk/v1/events`, against a bare Fastify route parsing the same body; (b) the time from a new script's
 * observation to its appearance in `GET /api/v1/scripts`, as a client would see it (post the batch, then read).
 */

const KNOWN_SCRIPTS = 20;
const SAMPLES = QUICK ? 20 : 300;
/** Well under a store's burst of new scripts. */
const SAMPLES_PER_STORE = 100;
const sri = (content: string) => `sha384-${createHash('sha384').update(content).digest('base64')}`;
const script = (n: number) => ({ kind: 'script', src: `https://cdn${n % 4}.bench-shop.example.com/js/app-${n}.js`, hash: sri(`script ${n}`), hash_source: 'sdk', size_bytes: 1000 + n });
const batchOf = (observations: unknown[]) => ({ page_url: 'https://bench-shop.example.com/checkout', session_id: 'bench-session', sdk_version: '1.0.0', observations });

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: any }> {
  const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: answer.status, json: await answer.json() };
}

let storesCreated = 0;
async function createStore(service: EmbeddedService): Promise<{ id: string; sdk_key: string }> {
  const domain = `bench-shop-${(storesCreated += 1)}.example.com`;
  const created = await post(`${service.baseUrl}/api/v1/stores`, { domain }, { authorization: `Bearer ${service.token}` });
  if (created.status !== 201) throw new Error(`store creation answered ${created.status} ${JSON.stringify(created.json)}`);
  return created.json;
}

/** The baseline: Fastify alone, parsing the same JSON body and answering the same 202. */
async function bareFastify(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = Fastify({ logger: false, bodyLimit: 256 * 1024 });
  server.post('/sdk/v1/events', async (request, reply) => {
    const batch = request.body as { observations: unknown[] };
    reply.code(202);
    return { accepted: batch.observations.length, rejected: 0 };
  });
  await server.listen({ host: '127.0.0.1', port: 0 });
  return { url: `http://127.0.0.1:${portOf(server.server.address())}/sdk/v1/events`, close: () => server.close() };
}

async function knownScriptsThroughput(service: EmbeddedService, sdkKey: string): Promise<BenchRow[]> {
  const body = batchOf(Array.from({ length: KNOWN_SCRIPTS }, (_, n) => script(n)));
  const ingestUrl = `${service.baseUrl}/sdk/v1/events?key=${sdkKey}`;
  const first = await post(ingestUrl, body); // the scripts become known
  if (first.status !== 202 || first.json.accepted !== KNOWN_SCRIPTS) throw new Error(`ingestion answered ${first.status} ${JSON.stringify(first.json)}`);
  const bare = await bareFastify();
  try {
    const json = JSON.stringify(body);
    const headers = { 'content-type': 'application/json' };
    const rows: BenchRow[] = [];
    for (const connections of [CONNECTIONS, MANY_CONNECTIONS]) {
      const embedded: Target = { label: `embedded SDK ingestion, ${connections} connections`, url: ingestUrl, method: 'POST', body: json, headers, connections };
      const baseline: Target = { label: `bare Fastify, ${connections} connections`, url: bare.url, method: 'POST', body: json, headers, connections };
      const best = await bestOfRounds([baseline, embedded]);
      const name = `SDK batch of ${KNOWN_SCRIPTS} known scripts, \`POST /sdk/v1/events\` (${connections} connections, best of ${ROUNDS} × ${SECONDS} s, each after ${WARM_UP_SECONDS} s warm-up)`;
      const baselineLabel = 'bare Fastify route parsing the same body';
      const ours = best.get(embedded)!;
      const raw = best.get(baseline)!;
      rows.push(
        { id: '4a', name, unit: 'req/s', measured: ours.requestsPerSecond, baseline: raw.requestsPerSecond, higherIsBetter: true, baselineLabel },
        { id: '4a', name: `${name}, p99 latency`, unit: 'ms', measured: ours.p99Ms, baseline: raw.p99Ms, higherIsBetter: false, baselineLabel },
      );
    }
    return rows;
  } finally {
    await bare.close();
  }
}

/**
 * Post a batch with one new script, then read `GET /scripts` until it is there; one at a time. A store records at
 * most 200 new scripts a minute (StoreBudget), so the samples are spread over stores of SAMPLES_PER_STORE.
 */
async function timeToInventory(service: EmbeddedService): Promise<BenchRow[]> {
  const samples: number[] = [];
  let store = await createStore(service);
  for (let n = 0; n < SAMPLES; n += 1) {
    if (n > 0 && n % SAMPLES_PER_STORE === 0) store = await createStore(service);
    const ingestUrl = `${service.baseUrl}/sdk/v1/events?key=${store.sdk_key}`;
    const listUrl = `${service.baseUrl}/api/v1/scripts?store_id=${store.id}&limit=1`;
    const observation = script(10_000 + n);
    const started = process.hrtime.bigint();
    const posted = await post(ingestUrl, batchOf([observation]));
    if (posted.status !== 202) throw new Error(`a new script was answered ${posted.status} ${JSON.stringify(posted.json)}`);
    for (let reads = 0; ; reads += 1) {
      const listed = (await (await fetch(listUrl, { headers: { authorization: `Bearer ${service.token}` } })).json()) as { data: { src: string }[] };
      if (listed.data[0]?.src === observation.src) break;
      if (reads > 1000) throw new Error(`${observation.src} never appeared in GET /scripts`);
    }
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  const sorted = Float64Array.from(samples).sort();
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  log(`time to inventory over ${SAMPLES} new scripts: p50 ${at(50).toFixed(2)} ms, p99 ${at(99).toFixed(2)} ms`);
  const name = `New script: SDK observation to its appearance in \`GET /api/v1/scripts\` (${SAMPLES} scripts, one at a time)`;
  const baselineLabel = 'none: a figure to record';
  return [
    { id: '4b', name: `${name}, p50`, unit: 'ms', measured: at(50), baseline: null, higherIsBetter: false, baselineLabel },
    { id: '4b', name: `${name}, p99`, unit: 'ms', measured: at(99), baseline: null, higherIsBetter: false, baselineLabel },
  ];
}

export async function ingestionBench(): Promise<BenchRow[]> {
  return withTempDir('ingestion', async (dataDir) => {
    const service = await startEmbeddedService(dataDir, ['stores:write', 'scripts:read']);
    try {
      const store = await createStore(service);
      return [...(await knownScriptsThroughput(service, store.sdk_key)), ...(await timeToInventory(service))];
    } finally {
      await service.close();
    }
  });
}
