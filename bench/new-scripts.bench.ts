import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { Global, Module } from '@nestjs/common';
import Database from 'better-sqlite3';
import { EVENT_STORE, SqliteEventStore } from '@pss/event-store';
import { uuidv7 } from '@pss/kernel';
import { PlatformLifecycle } from '@pss/platform';
import { NEW_SCRIPT_LIMITS, type BudgetLimits } from '@pss/inventory/src/ingestion/store-budget';
import type { NewScriptsLoad, NewScriptsResult } from './new-scripts.client';
import type { BenchRow } from './report';
import { collectGarbage, log, QUICK, withTempDir } from './support';
import { startEmbeddedService, type EmbeddedService } from './targets';

/**
 * Benchmark 13 (issue 15, goal 2): new scripts in bulk through the SDK. Many stores, one writer each posting
 * batches of new scripts back to back (the client runs in its own process); each script is a `ScriptDetected`
 * event, decided by the store's default policies behind the 202, and must show in `GET /api/v1/scripts`.
 * Measured: new scripts per second from the first POST to the last 202, and the p99 of the time from a batch's
 * 202 to the listing that shows all its scripts. The baseline is the storage floor: as many single-event appends
 * to new streams through raw better-sqlite3 (WAL, synchronous FULL), one transaction — one fsync — per SDK batch.
 */

const STORES = QUICK ? 8 : 40;
const SCRIPTS_PER_BATCH = 50;
const BATCHES_PER_STORE = QUICK ? 5 : 10;
const TOTAL = STORES * SCRIPTS_PER_BATCH * BATCHES_PER_STORE;
/** The aims. */
const AIM_PER_SECOND = 2_000;
const AIM_P99_MS = 1_000;
const DECISIONS = ['ScriptAuthorized', 'ScriptBlocked', 'ScriptReviewRequested', 'ScriptRecommended'];
const CLIENT = join(__dirname, 'new-scripts.client.ts');
const REGISTER = join(__dirname, '..', 'tools', 'register.js');

/** Limits no run of this benchmark reaches: it measures the cost of a new script, not the allowance. */
const UNLIMITED: BudgetLimits = { perBatch: 500, perMinute: 1_000_000_000, burst: 1_000_000_000, trackedStores: 1_000, clientShare: 1 };
@Global()
@Module({ providers: [{ provide: NEW_SCRIPT_LIMITS, useValue: UNLIMITED }], exports: [NEW_SCRIPT_LIMITS] })
export class UnlimitedNewScriptsModule {}

function drive(load: NewScriptsLoad): Promise<NewScriptsResult> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-r', REGISTER, CLIENT, JSON.stringify(load)], { timeout: 600_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`new-scripts client failed (exit ${String(error.code ?? error.signal)}): ${stderr}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as NewScriptsResult);
    });
  });
}

async function createStores(service: EmbeddedService): Promise<NewScriptsLoad['stores']> {
  const stores: NewScriptsLoad['stores'] = [];
  for (let n = 0; n < STORES; n += 1) {
    const domain = `shop-${n}.bench-new-scripts.example.com`;
    const answer = await fetch(`${service.baseUrl}/api/v1/stores`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${service.token}` },
      body: JSON.stringify({ domain }),
    });
    const created = (await answer.json()) as { id: string; sdk_key: string };
    if (answer.status !== 201) throw new Error(`store creation answered ${answer.status} ${JSON.stringify(created)}`);
    stores.push({ id: created.id, sdkKey: created.sdk_key, domain });
  }
  return stores;
}

/**
 * Counts events of `types` in (after, upTo] straight from the file (diagnostics: the service's own connection,
 * read only). A range of positions, so a poll reads only the rows added since the last one.
 */
function countEvents(store: SqliteEventStore, after: number, upTo: number, types: string[]): number {
  return store.database
    .prepare<unknown[], number>(`SELECT COUNT(*) FROM events WHERE position > ? AND position <= ? AND type IN (${types.map(() => '?').join(', ')})`)
    .pluck()
    .get(after, upTo, ...types)!;
}

/** Waits until every script of the run has its policy decision; the time that took after the last 202. */
async function decisionsDone(store: SqliteEventStore, after: number, endedAt: number): Promise<number> {
  let decided = 0;
  let counted = after;
  for (let waited = 0; waited < 600_000; waited += 50) {
    const head = await store.headPosition();
    decided += countEvents(store, counted, head, DECISIONS);
    counted = head;
    if (decided >= TOTAL) return Math.max(0, Math.round(Date.now() - endedAt));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`only ${decided} of ${TOTAL} new scripts were decided by the policies`);
}

/**
 * Waits until every integration publisher has delivered everything up to `position` to its consumers (alerts,
 * reports, notifier, the policies' consumer): what the new scripts fan out to, which must keep up for the rate to
 * be sustained. The time that took after the last 202.
 */
async function factsDelivered(lifecycle: PlatformLifecycle, position: number, endedAt: number): Promise<number> {
  for (let waited = 0; waited < 600_000; waited += 50) {
    if (Math.min(...lifecycle.publisherPositions().map((publisher) => publisher.position)) >= position) return Math.max(0, Math.round(Date.now() - endedAt));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the integration publishers did not reach position ${position}`);
}

/**
 * The storage floor: TOTAL single-event appends to new streams, one transaction per SDK batch's worth, with the
 * adapter's table and pragmas; events as big as a ScriptDetected.
 */
function rawAppends(file: string): number {
  SqliteEventStore.open(file).close();
  const db = new Database(file);
  try {
    db.pragma('synchronous = FULL');
    const insert = db.prepare('INSERT INTO events (id, stream, revision, type, data, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    const data = { scriptId: uuidv7(), storeId: uuidv7(), orgId: uuidv7(), src: 'https://cdn1.vendor.example.net/js/app.js', inline: false, host: 'cdn1.vendor.example.net', type: 'unknown', vendorId: null, category: null, status: 'pending_review', hash: 'sha384-0123456789abcdef0123456789abcdef0123456789abcdef', sriHash: null, hashSource: 'sdk', integrityAttr: null, sizeBytes: 2000, gtmContainer: null, pageUrl: 'https://shop-1.bench-new-scripts.example.com/checkout', sessionId: 'bench-1', detectedAt: new Date().toISOString() };
    const metadata = { actor: 'sdk', orgId: data.orgId };
    const batch = db.transaction((count: number) => {
      const createdAt = new Date().toISOString();
      for (let n = 0; n < count; n += 1) insert.run(uuidv7(), `script-${uuidv7()}`, 0, 'ScriptDetected', JSON.stringify(data), JSON.stringify(metadata), createdAt);
    });
    const started = performance.now();
    for (let written = 0; written < TOTAL; written += SCRIPTS_PER_BATCH) batch(Math.min(SCRIPTS_PER_BATCH, TOTAL - written));
    return TOTAL / ((performance.now() - started) / 1000);
  } finally {
    db.close();
  }
}

const percentile = (samples: number[], p: number): number => {
  const sorted = Float64Array.from(samples).sort();
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

export async function newScriptsBench(): Promise<BenchRow[]> {
  return withTempDir('new-scripts', async (dataDir) => {
    const service = await startEmbeddedService(dataDir, ['stores:write', 'scripts:read'], [UnlimitedNewScriptsModule]);
    try {
      const eventStore = service.app.get<SqliteEventStore>(EVENT_STORE);
      const stores = await createStores(service);
      const load = (runId: string, batchesPerStore: number): NewScriptsLoad => ({ baseUrl: service.baseUrl, token: service.token, stores, scriptsPerBatch: SCRIPTS_PER_BATCH, batchesPerStore, runId });
      // A short unrecorded pass, so the JIT is warm and the stores' read models exist.
      await drive(load('warm-up', 1));
      const rawBefore = rawAppends(join(dataDir, 'raw-before.sqlite'));
      collectGarbage();

      const head = await eventStore.headPosition();
      const commitsBefore = eventStore.groupCommitStats();
      const result = await drive(load('measured', BATCHES_PER_STORE));
      const decidedAfterMs = await decisionsDone(eventStore, head, result.endedAt);
      const deliveredAfterMs = await factsDelivered(service.app.get(PlatformLifecycle), await eventStore.headPosition(), result.endedAt);
      const commitsAfter = eventStore.groupCommitStats();
      const detected = countEvents(eventStore, head, await eventStore.headPosition(), ['ScriptDetected']);
      if (detected !== TOTAL) throw new Error(`${detected} ScriptDetected events for ${TOTAL} new scripts`);
      const rawAfter = rawAppends(join(dataDir, 'raw-after.sqlite'));

      const perSecond = result.scripts / result.seconds;
      const raw = Math.max(rawBefore, rawAfter);
      const writesPerCommit = (commitsAfter.writes - commitsBefore.writes) / (commitsAfter.commits - commitsBefore.commits);
      const p99 = percentile(result.appearanceMs, 99);
      log(
        `new scripts: ${TOTAL} in ${result.seconds.toFixed(1)} s = ${Math.round(perSecond)}/s (aim ${AIM_PER_SECOND}); raw ${Math.round(rawBefore)} and ${Math.round(rawAfter)}/s; ` +
          `202 to listed p50 ${percentile(result.appearanceMs, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (aim ${AIM_P99_MS}); POST p50 ${percentile(result.postMs, 50).toFixed(0)} ms, p99 ${percentile(result.postMs, 99).toFixed(0)} ms; ` +
          `${result.listings} listings; all decided ${decidedAfterMs} ms and every fact delivered ${deliveredAfterMs} ms after the last 202; ${writesPerCommit.toFixed(1)} writes (appends, checkpoints) per commit`,
      );
      const shape = `${STORES} stores, one writer each, ${SCRIPTS_PER_BATCH} new scripts per batch, ${TOTAL.toLocaleString('en-US')} scripts`;
      const floor = `better-sqlite3, ${TOTAL.toLocaleString('en-US')} single-event appends to new streams, one fsync per ${SCRIPTS_PER_BATCH}`;
      return [
        { id: '13', name: `New scripts through the SDK, 202s per second (${shape}; aim ≥ ${AIM_PER_SECOND.toLocaleString('en-US')}/s)`, unit: 'scripts/s', measured: perSecond, baseline: raw, higherIsBetter: true, baselineLabel: floor },
        { id: '13', name: `… every one decided by the policies, per second (first POST to last decision)`, unit: 'scripts/s', measured: TOTAL / (result.seconds + decidedAfterMs / 1000), baseline: raw, higherIsBetter: true, baselineLabel: floor },
        { id: '13', name: `… every fact they published delivered to its consumers, per second (first POST to the last delivery)`, unit: 'scripts/s', measured: TOTAL / (result.seconds + deliveredAfterMs / 1000), baseline: raw, higherIsBetter: true, baselineLabel: floor },
        { id: '13', name: `… time from a batch's 202 to its scripts in \`GET /api/v1/scripts\`, p99 (aim ≤ ${AIM_P99_MS} ms)`, unit: 'ms', measured: p99, baseline: null, higherIsBetter: false, baselineLabel: `none: the aim is ${AIM_P99_MS} ms` },
        { id: '13', name: `… the SDK batch's own latency (POST to 202), p99`, unit: 'ms', measured: percentile(result.postMs, 99), baseline: null, higherIsBetter: false, baselineLabel: 'none: a figure to record' },
      ];
    } finally {
      await service.close();
    }
  });
}
