import { createHash, randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@pss/config';
import { EVENT_STORE, type EventStore } from '@pss/event-store';
import { createServiceApp } from '@pss/host';
import { ProjectionRunner } from '@pss/projections';
import { OpsRegistry } from '@pss/ops';
import { EMBEDDED_MODULES } from '@pss/embedded/src/embedded.modules';
import { MAX_CHANNELS_PER_STORE, MAX_ORGANIZATION_WIDE_CHANNELS } from '@pss/notifier/src/channels/channel-limits';
import type { BenchRow } from './report';
import { collectGarbage, log, QUICK, withTempDir } from './support';
import { portOf } from './targets';

/**
 * Issue 12, "the measure": /health and an authenticated GET /api/v1/stores probed every PROBE_INTERVAL_MS while
 * forged SDK batches of new scripts hit a store whose organization has every channel it may have (20
 * organization-wide, the store's own up to 10, all to a receiver that refuses at once, so every delivery is
 * recorded and attempted) and `projections rebuild --all` runs over some SEED_DELIVERIES delivery events.
 * Probes and flood run in this process, against the service's port: `monitorEventLoopDelay` sees the
 * service's own loop. The same probes on the idle service come first, for comparison.
 */

const PROBE_INTERVAL_MS = 20;
const FLOOD_SECONDS = QUICK ? 5 : 20;
const FLOOD_SENDERS = 4;
/** The freeze the issue reports came from a rebuild over 100,000 delivery events. */
const SEED_DELIVERIES = QUICK ? 5_000 : 100_000;
const AIM_P99_MS = 200;
const AIM_LOOP_MAX_MS = 100;

const sri = (content: string) => `sha384-${createHash('sha384').update(content).digest('base64')}`;
const batchOf = (observations: unknown[], session = 'bench') => ({ page_url: 'https://flood.example.com/checkout', session_id: session, sdk_version: '1.0.0', observations });

interface Service {
  app: NestFastifyApplication;
  baseUrl: string;
  token: string;
  sdkKey: string;
  storeId: string;
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: any }> {
  const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: answer.status, json: await answer.json().catch(() => undefined) };
}

export async function startService(dataDir: string): Promise<Service> {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error', HOST: '127.0.0.1', PORT: '0', WEBHOOK_ALLOW_HOSTS: '127.0.0.1' });
  const app: NestFastifyApplication = await createServiceApp({ name: 'bench', modules: EMBEDDED_MODULES, config });
  await app.listen(0, '127.0.0.1');
  const baseUrl = `http://127.0.0.1:${portOf(app.getHttpServer().address())}`;
  const ops = app.get(OpsRegistry);
  const org = (await ops.run('org.create', { name: 'Flooded Org', plan: 'enterprise', 'owner-email': 'owner@flood.example' })) as { id: string };
  const { token } = (await ops.run('token.create', { org: org.id, name: 'bench', scopes: 'stores:read,stores:write,webhooks:manage' })) as { token: string };
  const auth = { authorization: `Bearer ${token}` };
  const store = await post(`${baseUrl}/api/v1/stores`, { domain: 'flood.example.com' }, auth);
  if (store.status !== 201) throw new Error(`store creation answered ${store.status}`);
  const hook = (body: Record<string, unknown>) => post(`${baseUrl}/api/v1/webhooks`, { url: 'https://127.0.0.1:9/hook', min_severity: 'low', ...body }, auth);
  for (let i = 0; i < MAX_ORGANIZATION_WIDE_CHANNELS; i += 1) await hook({});
  for (let i = 0; i < MAX_CHANNELS_PER_STORE && (await hook({ store_id: store.json.id })).status === 201; i += 1);
  return { app, baseUrl, token, sdkKey: store.json.sdk_key, storeId: store.json.id };
}

/** Delivery events for the rebuild to replay: copies of a real request, due in 2100 so no retry cycle takes them up. */
export async function seedDeliveries(service: Service, count: number): Promise<void> {
  const eventStore = service.app.get<EventStore>(EVENT_STORE);
  const first = await post(`${service.baseUrl}/sdk/v1/events?key=${service.sdkKey}`, batchOf([{ kind: 'script', src: 'https://seed.example.net/s.js', hash: sri('seed') }]));
  if (first.status !== 202) throw new Error(`seed batch answered ${first.status}`);
  let sample;
  for (let tries = 0; !sample && tries < 500; tries += 1) {
    [sample] = await eventStore.readAll({ filter: { eventTypes: ['DeliveryRequested'] }, maxCount: 1 });
    if (!sample) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (!sample) throw new Error('no delivery was requested for the seed script');
  const PER_STREAM = 500;
  for (let written = 0; written < count; written += PER_STREAM) {
    const events = Array.from({ length: PER_STREAM }, () => ({
      type: 'DeliveryRequested',
      data: { ...sample.data, deliveryId: randomUUID(), requestedAt: '2100-01-01T00:00:00.000Z' },
      metadata: sample.metadata,
    }));
    await eventStore.append(`delivery-${randomUUID()}`, events);
  }
}

interface Probe {
  latencies: number[];
  failures: number;
}

/** One request every PROBE_INTERVAL_MS until `until` resolves, each timed from send to full answer. */
async function probe(url: string, headers: Record<string, string>, until: Promise<unknown>): Promise<Probe> {
  let done = false;
  void until.then(() => (done = true));
  const result: Probe = { latencies: [], failures: 0 };
  while (!done) {
    const started = performance.now();
    const answer = await fetch(url, { headers }).catch(() => undefined);
    await answer?.arrayBuffer();
    if (answer?.status === 200) result.latencies.push(performance.now() - started);
    else result.failures += 1;
    await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
  }
  return result;
}

const p99 = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)] : NaN;
};

interface Flood {
  accepted: number;
  refused: number;
  other: number;
  scripts: number;
}

/** FLOOD_SENDERS forged SDKs posting batches of 50 never-seen scripts, back to back, for `seconds`. */
async function flood(service: Service, seconds: number): Promise<Flood> {
  const result: Flood = { accepted: 0, refused: 0, other: 0, scripts: 0 };
  const deadline = performance.now() + seconds * 1000;
  let sequence = 0;
  const sender = async (id: number) => {
    while (performance.now() < deadline) {
      const batch = Array.from({ length: 50 }, () => {
        const n = sequence++;
        return { kind: 'script', src: `https://forged-${id}.example.net/s${n}.js`, hash: sri(`forged ${n}`) };
      });
      const answer = await post(`${service.baseUrl}/sdk/v1/events?key=${service.sdkKey}`, batchOf(batch, `forged-${id}`));
      // Past the store's budget a batch is still 202, its scripts rejected one by one: that is a refusal.
      if (answer.status === 202 && answer.json?.accepted > 0) result.accepted += 1;
      else if (answer.status === 429 || answer.status === 202) result.refused += 1;
      else result.other += 1;
    }
  };
  await Promise.all(Array.from({ length: FLOOD_SENDERS }, (_, id) => sender(id)));
  return result;
}

export async function availabilityBench(): Promise<BenchRow[]> {
  return withTempDir('availability', async (dir) => {
    const service = await startService(dir);
    try {
      log(`seeding ${SEED_DELIVERIES} delivery events...`);
      await seedDeliveries(service, SEED_DELIVERIES);
      const health = `${service.baseUrl}/health`;
      const stores = `${service.baseUrl}/api/v1/stores`;
      const auth = { authorization: `Bearer ${service.token}` };
      await service.app.get(ProjectionRunner).catchUp(600_000);
      collectGarbage();

      const idleLoop = monitorEventLoopDelay({ resolution: 5 });
      idleLoop.enable();
      const idleFor = new Promise((resolve) => setTimeout(resolve, QUICK ? 2000 : 5000));
      const [idleHealth, idleStores] = await Promise.all([probe(health, {}, idleFor), probe(stores, auth, idleFor)]);
      idleLoop.disable();

      log(`flood for ${FLOOD_SECONDS} s with a rebuild of every projection...`);
      const loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
      const rebuildStarted = performance.now();
      const rebuild = service.app
        .get(OpsRegistry)
        .run('projections.rebuild', { all: true })
        .then(() => (performance.now() - rebuildStarted) / 1000);
      const flooding = flood(service, FLOOD_SECONDS);
      const underLoad = Promise.all([flooding, rebuild]);
      const [busyHealth, busyStores] = await Promise.all([probe(health, {}, underLoad), probe(stores, auth, underLoad)]);
      const [floodResult, rebuildSeconds] = await underLoad;
      loop.disable();
      const eventStore = service.app.get<EventStore>(EVENT_STORE);
      const deliveries = (await eventStore.readAll({ filter: { eventTypes: ['DeliveryRequested'] }, maxCount: 10_000_000 })).length - SEED_DELIVERIES;
      if (busyHealth.failures || busyStores.failures) throw new Error(`probes failed under load: ${busyHealth.failures} /health, ${busyStores.failures} GET /stores`);

      const label = `under a forged SDK flood (${FLOOD_SENDERS} senders × batches of 50 new scripts, ${FLOOD_SECONDS} s: ${floodResult.accepted} recorded scripts, ${floodResult.refused} refused (429, or 202 with every script rejected), ${floodResult.other} other; ${deliveries} deliveries requested; ${MAX_ORGANIZATION_WIDE_CHANNELS} org-wide + store channels) and a rebuild of every projection over ${SEED_DELIVERIES.toLocaleString('en-US')} seeded delivery events (${rebuildSeconds.toFixed(1)} s)`;
      return [
        { id: '12a', name: `\`GET /health\` p99 ${label}; aim ≤ ${AIM_P99_MS} ms`, unit: 'ms', measured: p99(busyHealth.latencies), baseline: null, higherIsBetter: false, baselineLabel: `idle: ${p99(idleHealth.latencies).toFixed(2)} ms` },
        { id: '12a', name: `authenticated \`GET /api/v1/stores\` p99, same load; aim ≤ ${AIM_P99_MS} ms`, unit: 'ms', measured: p99(busyStores.latencies), baseline: null, higherIsBetter: false, baselineLabel: `idle: ${p99(idleStores.latencies).toFixed(2)} ms` },
        { id: '12a', name: `event-loop delay, max (\`monitorEventLoopDelay\`), same load; aim ≤ ${AIM_LOOP_MAX_MS} ms`, unit: 'ms', measured: loop.max / 1e6, baseline: null, higherIsBetter: false, baselineLabel: `p99 ${(loop.percentile(99) / 1e6).toFixed(2)} ms; idle: max ${(idleLoop.max / 1e6).toFixed(2)} ms` },
      ];
    } finally {
      await service.app.close();
    }
  });
}
