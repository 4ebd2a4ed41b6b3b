import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { eventually, sri } from '@pss/testkit';
import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';
import type { BenchRow } from './report';
import { log, QUICK, withTempDir } from './support';

/**
 * Benchmark 5: start-up of the embedded service on a data directory holding a million events, to `/ready`
 * answering 200, measured from outside (a child process, as `npm start` runs it). Once from the read-model
 * snapshot its previous life left (load it, catch up from its positions), once with the snapshot removed (replay
 * every event: how every start went before snapshots), once from a snapshot some events behind (a kill -9 some
 * time after the last periodic snapshot), in turns. Also the resident memory of the process once ready, which
 * holds every read model of those events, and the boot of the process on an empty data directory for reference.
 *
 * The data: a world made through the real API (an organization, its stores, SDK batches with new scripts and a
 * skimmer, so alerts, deliveries, report facts, ...), copied with fresh ids until there are 1,000 stores, then the
 * high-volume events of such a world (sightings flushes, report facts, SDK activity) repeated on those streams
 * until the store holds a million events. Written in big raw transactions into the adapter's own schema: a million
 * appends through the API would take the benchmark's whole budget.
 */

const TOTAL_EVENTS = QUICK ? 50_000 : 1_000_000;
const STORES = QUICK ? 50 : 1_000;
const STORES_PER_WORLD = 10;
const ROUNDS = QUICK ? 1 : 2;
/** The high-volume events a running shop produces; repeated to fill the store after the worlds. */
const REPEATED_TYPES = new Set(['SightingsFlushed', 'ReportFactRecorded', 'SdkActivityRecorded', 'SdkWindowCounted']);
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TARGET_SECONDS = 5;
/** Events written after the last snapshot in the catch-up case: a periodic snapshot is written every 10,000. */
const BEHIND_EVENTS = QUICK ? 2_000 : 20_000;

interface EventRow {
  id: string;
  stream: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
  created_at: string;
}

/** One world through the API: what a real organization's first hour leaves in the event store. */
async function makeWorld(dataDir: string): Promise<void> {
  const service = await EmbeddedHarness.start({ dataDir });
  try {
    const tenant = await service.tenant(['stores:write', 'scripts:read', 'alerts:read']);
    for (let s = 0; s < STORES_PER_WORLD; s += 1) {
      const store = await service.createStore(tenant.token);
      for (let session = 0; session < 3; session += 1) {
        const observations = Array.from({ length: 8 }, (_, i) => ({ kind: 'script', src: `https://${store.domain}/static/chunk-${i}.js`, hash: sri(`chunk ${i}`) }));
        observations.push({ kind: 'script', src: 'https://magentocore.net/mage.js', hash: sri('skimmer') });
        await service.reportSdk(store.sdk_key, observations, { session_id: `shopper-${session}` });
      }
    }
    const alerts = async () => (await service.request('GET', '/api/v1/alerts?limit=100', { token: tenant.token })).body.data.length as number;
    await eventually(alerts, (count) => count >= STORES_PER_WORLD, { timeoutMs: 60_000 });
  } finally {
    await service.close();
  }
}

/** Copies of the world with fresh ids (streams without an id get a copy suffix), until there are STORES stores. */
function copyWorld(db: Database.Database): number {
  const world = db.prepare<[], EventRow>('SELECT id, stream, revision, type, data, metadata, created_at FROM events ORDER BY position').all();
  const insert = db.prepare('INSERT INTO events (id, stream, revision, type, data, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  let events = world.length;
  db.transaction(() => {
    for (let copy = 1; copy < STORES / STORES_PER_WORLD; copy += 1) {
      const ids = new Map<string, string>();
      const remap = (text: string) => text.replace(UUID, (id) => ids.get(id) ?? ids.set(id, randomUUID()).get(id)!);
      for (const row of world) {
        if (row.stream.startsWith('token-')) continue; // token prefixes are unique: one organization's tokens suffice
        const remapped = remap(row.stream);
        const stream = remapped === row.stream ? `${row.stream}~${copy}` : remapped;
        insert.run(randomUUID(), stream, row.revision, row.type, remap(row.data), remap(row.metadata), row.created_at);
        events += 1;
      }
    }
  })();
  return events;
}

/** `count` more of the busy events (sightings flushes, report facts, SDK activity), each at the next revision. */
function appendBusyEvents(db: Database.Database, count: number): void {
  const types = [...REPEATED_TYPES];
  const busy = db
    .prepare<string[], EventRow>(`SELECT * FROM events WHERE type IN (${types.map(() => '?').join(', ')}) ORDER BY position LIMIT 20000`)
    .all(...types);
  if (busy.length === 0) throw new Error('the world holds none of the events to repeat');
  const revisionOf = db.prepare<[string], { revision: number }>('SELECT MAX(revision) AS revision FROM events WHERE stream = ?');
  const nextRevision = new Map(busy.map((row) => [row.stream, revisionOf.get(row.stream)!.revision + 1]));
  const insert = db.prepare('INSERT INTO events (id, stream, revision, type, data, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  for (let written = 0; written < count; ) {
    db.transaction(() => {
      for (let i = 0; i < 50_000 && written < count; i += 1, written += 1) {
        const row = busy[written % busy.length];
        const revision = nextRevision.get(row.stream)!;
        nextRevision.set(row.stream, revision + 1);
        insert.run(randomUUID(), row.stream, revision, row.type, row.data, row.metadata, row.created_at);
      }
    })();
  }
}

/** Raw writes into the adapter's own file, checkpointed, so the service starts on a plain database file. */
function withEvents<T>(file: string, write: (db: Database.Database) => T): T {
  const db = new Database(file);
  try {
    const result = write(db);
    db.pragma('wal_checkpoint(TRUNCATE)');
    return result;
  } finally {
    db.close();
  }
}

const headOf = (file: string): number => withEvents(file, (db) => (db.prepare('SELECT MAX(position) AS head FROM events').get() as { head: number }).head);

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

interface StartUp {
  seconds: number;
  rssMiB: number;
  lines: string[];
}

/** `npm start` on the data directory: seconds from spawn to `/ready` 200, the RSS then; stopped with SIGTERM. */
async function startUp(dataDir: string): Promise<StartUp> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['-r', './tools/register.js', 'apps/embedded/src/main.ts'], {
    cwd: join(__dirname, '..'),
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  child.stderr.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}: ${lines.slice(-5).join(' | ')}`);
      const ready = await fetch(`http://127.0.0.1:${port}/ready`).then((answer) => answer.status === 200, () => false);
      if (ready) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const seconds = (performance.now() - started) / 1000;
    const rssMiB = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
    return { seconds, rssMiB, lines };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const messages = (lines: string[], pattern: RegExp): string[] =>
  lines.map((line) => /"message":"([^"]*)"/.exec(line)?.[1] ?? line).filter((message) => pattern.test(message));

export async function startupBench(): Promise<BenchRow[]> {
  return withTempDir('startup', async (dataDir) => {
    await makeWorld(dataDir);
    const file = join(dataDir, 'events.sqlite');
    const filling = performance.now();
    withEvents(file, (db) => appendBusyEvents(db, TOTAL_EVENTS - copyWorld(db)));
    log(`start-up: ${headOf(file)} events written in ${((performance.now() - filling) / 1000).toFixed(1)} s`);
    const snapshot = join(dataDir, 'read-models.snapshot');
    const runs = { empty: [] as StartUp[], fullReplay: [] as StartUp[], fromSnapshot: [] as StartUp[], behind: [] as StartUp[] };
    for (let round = 1; round <= ROUNDS; round += 1) {
      // The process's own boot, with nothing to load (the first one also warms the compile cache).
      runs.empty.push(await withTempDir('startup-empty', (emptyDir) => startUp(emptyDir)));
      rmSync(snapshot, { force: true });
      const replayed = await startUp(dataDir); // replays every event, then writes the snapshot at shutdown
      runs.fullReplay.push(replayed);
      if (!existsSync(snapshot)) throw new Error(`no snapshot after a full start: ${messages(replayed.lines, /snapshot/).join(' | ')}`);
      const loaded = await startUp(dataDir);
      runs.fromSnapshot.push(loaded);
      // As after a kill -9 some time after the last snapshot: events written since, to catch up at start.
      withEvents(file, (db) => appendBusyEvents(db, BEHIND_EVENTS));
      const caughtUp = await startUp(dataDir);
      runs.behind.push(caughtUp);
      log(`round ${round}: empty data directory ${runs.empty[round - 1].seconds.toFixed(2)} s, full replay ${replayed.seconds.toFixed(2)} s (RSS ${replayed.rssMiB.toFixed(0)} MiB), from the snapshot ${loaded.seconds.toFixed(2)} s (RSS ${loaded.rssMiB.toFixed(0)} MiB), from a snapshot ${BEHIND_EVENTS} events behind ${caughtUp.seconds.toFixed(2)} s`);
      for (const line of messages([...loaded.lines, ...caughtUp.lines], /snapshot|catching up|caught up/)) log(`  ${line}`);
    }
    const fastest = (list: StartUp[]) => list.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    const [empty, replay, snap, behind] = [fastest(runs.empty), fastest(runs.fullReplay), fastest(runs.fromSnapshot), fastest(runs.behind)];
    const events = `${(TOTAL_EVENTS / 1e6).toLocaleString('en-US')} million events`;
    const againstReplay = (name: string, run: StartUp): BenchRow => ({
      id: '5a',
      name,
      unit: 'ms',
      measured: run.seconds * 1000,
      baseline: replay.seconds * 1000,
      higherIsBetter: false,
      baselineLabel: 'the same start with the snapshot removed: every event replayed',
    });
    return [
      againstReplay(`Start-up to \`/ready\` on ${events}, from the read-model snapshot (target ${TARGET_SECONDS} s; empty data directory: ${empty.seconds.toFixed(2)} s)`, snap),
      againstReplay(`Start-up to \`/ready\` on ${events}, from a snapshot ${BEHIND_EVENTS.toLocaleString('en-US')} events behind (a kill -9 after the last periodic snapshot)`, behind),
      {
        id: '5b',
        name: `Start-up to \`/ready\` on ${events}, from a snapshot ${BEHIND_EVENTS.toLocaleString('en-US')} events behind, against the issue's target`,
        unit: 'ms',
        measured: behind.seconds * 1000,
        baseline: TARGET_SECONDS * 1000,
        higherIsBetter: false,
        baselineLabel: `the ${TARGET_SECONDS} s the issue sets (ratio ≥ 1: met)`,
      },
      {
        id: '5c',
        name: `RSS of the embedded service once ready on ${events} (from the snapshot; after a full replay: ${Math.round(replay.rssMiB)} MiB)`,
        unit: 'MiB',
        measured: snap.rssMiB,
        baseline: 1024,
        higherIsBetter: false,
        baselineLabel: 'the 1 GiB the issue allows (ratio ≥ 1: under it)',
      },
    ];
  });
}
