import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteEventStore, type NewEvent } from '@pss/event-store';
import { uuidv7 } from '@pss/kernel';
import type { BenchRow } from './report';
import { best, collectGarbage, log, perSecond, QUICK, timeBoxed, timeBoxedSync, withTempDir, type Budget, type Measured } from './support';

/**
 * Benchmark 1: appends per second to the SQLite event store against raw better-sqlite3 inserts of the same rows
 * into the same table shape, with the same pragmas (WAL, synchronous FULL: every commit is an fsync).
 */

/** The adapter's own INSERT; the baseline's table is created by the adapter itself, so the shapes cannot drift. */
const INSERT = 'INSERT INTO events (id, stream, revision, type, data, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)';

const BATCH = 100;
const ROUNDS = QUICK ? 1 : 3;
const SINGLE: Budget = { seconds: QUICK ? 0.3 : 1.5, maxOps: 40_000 };
const BATCHED: Budget = { seconds: QUICK ? 0.3 : 1.5, maxOps: 4_000 };
const WARM_UP: Budget = { seconds: 0.2, maxOps: 500 };

/** A store-like event, about the size of the real ones (about 260 bytes of data and 130 of metadata as JSON). */
const ORG_ID = randomUUID();
const storeEvent = (): NewEvent => ({
  type: 'StoreRegistered',
  data: {
    storeId: randomUUID(),
    orgId: ORG_ID,
    name: 'Checkout EU',
    domain: 'shop.example.com',
    paymentPagePaths: ['/checkout', '/checkout/pay'],
    environment: 'production',
    registeredAt: '2026-02-01T08:00:00.000Z',
  },
  metadata: { actor: 'api:pss_tok_0123abcd', orgId: ORG_ID, correlationId: randomUUID() },
});
/** Events are built before the clock starts, on both sides, so neither pays for building them. */
const SINGLE_EVENT = [storeEvent()];
const HUNDRED_EVENTS = Array.from({ length: BATCH }, storeEvent);

/** Appends in flight at once in the `concurrent` shape: an SDK batch's new scripts, say. */
const CONCURRENT = 50;

type Shape = 'new-stream' | 'one-stream' | 'batch' | 'concurrent';
const budgetOf = (shape: Shape): Budget => (shape === 'batch' || shape === 'concurrent' ? BATCHED : SINGLE);

/** Every run writes a fresh database file in its own directory, removed (with its -wal and -shm) afterwards. */
let runs = 0;
async function onFreshFile<T>(dir: string, use: (file: string) => T | Promise<T>): Promise<T> {
  runs += 1;
  const own = join(dir, `run-${runs}`);
  mkdirSync(own);
  try {
    return await use(join(own, 'events.sqlite'));
  } finally {
    rmSync(own, { recursive: true, force: true });
  }
}

/** Through `SqliteEventStore.append`, with the expected revision the shape calls for. */
async function adapterRun(file: string, shape: Shape, budget: Budget): Promise<Measured> {
  const store = SqliteEventStore.open(file);
  try {
    return await timeBoxed(budget, async (i) => {
      if (shape === 'one-stream') {
        await store.append('store-one', SINGLE_EVENT, { expectedRevision: i === 0 ? 'no_stream' : i - 1 });
        return 1;
      }
      if (shape === 'concurrent') {
        // Each its own append, made in one turn: group commit gives them one transaction.
        await Promise.all(Array.from({ length: CONCURRENT }, () => store.append(`store-${uuidv7()}`, SINGLE_EVENT, { expectedRevision: 'no_stream' })));
        return CONCURRENT;
      }
      const events = shape === 'batch' ? HUNDRED_EVENTS : SINGLE_EVENT;
      await store.append(`store-${uuidv7()}`, events, { expectedRevision: 'no_stream' });
      return events.length;
    });
  } finally {
    await store.close();
  }
}

/**
 * The same rows with nothing but better-sqlite3: one prepared INSERT in a transaction per append, timed
 * synchronously (no promise per append). It still gives
 * each event an id, serializes data and metadata and stamps the time, as any writer of these rows must. Ids are
 * the adapter's UUIDv7: random (v4) ids land all over the unique index on `id` and make every commit write about
 * twice the pages, which would flatter the adapter by 2x on batches.
 */
async function rawRun(file: string, shape: Shape, budget: Budget): Promise<Measured> {
  await SqliteEventStore.open(file).close(); // creates the table and its indexes, and switches the file to WAL
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL'); // persistent in the file already; stated for the reader
    db.pragma('synchronous = FULL'); // per connection, as the adapter sets it
    const insert = db.prepare(INSERT);
    const write = db.transaction((stream: string, first: number, events: NewEvent[]) => {
      const createdAt = new Date().toISOString();
      let revision = first;
      for (const event of events) {
        insert.run(uuidv7(), stream, revision, event.type, JSON.stringify(event.data), JSON.stringify(event.metadata ?? {}), createdAt);
        revision += 1;
      }
    });
    return timeBoxedSync(budget, (i) => {
      if (shape === 'one-stream') {
        write('store-one', i, SINGLE_EVENT);
        return 1;
      }
      if (shape === 'concurrent') {
        // What the adapter did before group commit: one transaction, one fsync, per append.
        for (let n = 0; n < CONCURRENT; n += 1) write(`store-${uuidv7()}`, 0, SINGLE_EVENT);
        return CONCURRENT;
      }
      const events = shape === 'batch' ? HUNDRED_EVENTS : SINGLE_EVENT;
      write(`store-${uuidv7()}`, 0, events);
      return events.length;
    });
  } finally {
    db.close();
  }
}

const SHAPES: Array<{ shape: Shape; id: string; name: string; baselineLabel: string }> = [
  { shape: 'new-stream', id: '1a', name: 'Append 1 event, new stream each (`no_stream`)', baselineLabel: '1-row transactions' },
  { shape: 'one-stream', id: '1a', name: 'Append 1 event to one stream (exact expected revision)', baselineLabel: '1-row transactions' },
  { shape: 'batch', id: '1b', name: 'Append 100 events per call (`no_stream`)', baselineLabel: '100-row transactions' },
  {
    shape: 'concurrent',
    id: '1c',
    name: `${CONCURRENT} concurrent appends of 1 event, new stream each (\`no_stream\`): group commit`,
    baselineLabel: '1-row transactions, one per append (no group commit)',
  },
];

export async function eventStoreBench(): Promise<BenchRow[]> {
  return withTempDir('appends', async (dir) => {
    // A short unrecorded pass of every variant, so the JIT and the page cache are warm on both sides alike.
    for (const { shape } of SHAPES) {
      await onFreshFile(dir, (file) => rawRun(file, shape, WARM_UP));
      await onFreshFile(dir, (file) => adapterRun(file, shape, WARM_UP));
    }
    const raw = new Map<Shape, Measured[]>(SHAPES.map(({ shape }) => [shape, []]));
    const adapter = new Map<Shape, Measured[]>(SHAPES.map(({ shape }) => [shape, []]));
    // Rounds alternate baseline and adapter, each on a fresh file, so drift of the machine hits both alike.
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const { shape } of SHAPES) {
        collectGarbage();
        const rawRate = await onFreshFile(dir, (file) => rawRun(file, shape, budgetOf(shape)));
        collectGarbage();
        const adapterRate = await onFreshFile(dir, (file) => adapterRun(file, shape, budgetOf(shape)));
        raw.get(shape)!.push(rawRate);
        adapter.get(shape)!.push(adapterRate);
        log(`appends ${shape}, round ${round}: raw ${Math.round(perSecond(rawRate))} events/s, adapter ${Math.round(perSecond(adapterRate))} events/s`);
      }
    }
    return SHAPES.map(({ shape, id, name, baselineLabel }) => ({
      id,
      name,
      unit: 'events/s',
      measured: perSecond(best(adapter.get(shape)!)),
      baseline: perSecond(best(raw.get(shape)!)),
      higherIsBetter: true,
      baselineLabel: `better-sqlite3, ${baselineLabel}`,
    }));
  });
}
