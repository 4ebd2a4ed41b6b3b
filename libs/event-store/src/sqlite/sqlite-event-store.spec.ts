import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { eventStoreConformance } from '../event-store.conformance';
import { uuidv7 } from '@pss/kernel';
import { AppendResult, RecordedEvent, WrongExpectedRevisionError } from '../event-store.port';
import { SqliteEventStore, SqliteEventStoreOptions } from './sqlite-event-store';

const REPO_ROOT = resolve(__dirname, '../../../..');

/** A fresh database file per test, removed afterwards. */
function temporaryFile(): { path: string; remove: () => void } {
  const directory = mkdtempSync(join(tmpdir(), 'pss-event-store-'));
  return { path: join(directory, 'events.sqlite'), remove: () => rmSync(directory, { recursive: true, force: true }) };
}

/** Appends through SqliteEventStore in a separate Node process, as the admin CLI would. */
async function appendFromAnotherProcess(path: string, stream: string, type: string): Promise<AppendResult> {
  const script = `
    const { SqliteEventStore } = require('./libs/event-store/src/sqlite/sqlite-event-store.ts');
    const [path, stream, type] = process.argv.slice(1);
    const store = SqliteEventStore.open(path);
    store.append(stream, [{ type, data: { pid: process.pid } }], { expectedRevision: 'no_stream' })
      .then((result) => process.stdout.write(JSON.stringify(result)))
      .finally(() => store.close());
  `;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['-r', './tools/register.js', '-e', script, path, stream, type],
    { cwd: REPO_ROOT },
  );
  return JSON.parse(stdout) as AppendResult;
}

/**
 * Appends with group commit in a separate Node process, 50 writers at a time, each on its own streams, and prints
 * "<stream> <revision>" once an append's promise has resolved, until it is killed.
 */
function appendUntilKilled(path: string) {
  const script = `
    const { SqliteEventStore } = require('./libs/event-store/src/sqlite/sqlite-event-store.ts');
    const store = SqliteEventStore.open(process.argv[1]);
    const writer = async (id) => {
      for (let n = 0; ; n += 1) {
        const stream = 'writer-' + id + '-' + Math.floor(n / 3);
        const result = await store.append(stream, [{ type: 'Written', data: { id, n } }], { expectedRevision: n % 3 === 0 ? 'no_stream' : (n % 3) - 1 });
        process.stdout.write(stream + ' ' + result.nextRevision + '\\n');
      }
    };
    for (let id = 0; id < 50; id += 1) writer(id);
  `;
  return spawn(process.execPath, ['-r', './tools/register.js', '-e', script, path], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
}

eventStoreConformance('SqliteEventStore', async () => {
  const file = temporaryFile();
  // Small pages and scan windows, so catch-ups and filtered reads cross their boundaries.
  const options: SqliteEventStoreOptions = { pollIntervalMs: 10, pageSize: 2, scanWindow: 3 };
  const store = SqliteEventStore.open(file.path, options);
  return {
    store,
    openSecond: async () => SqliteEventStore.open(file.path, options),
    cleanup: async () => {
      await store.close();
      file.remove();
    },
  };
});

describe('SqliteEventStore on its file', () => {
  let file: ReturnType<typeof temporaryFile>;
  const opened: SqliteEventStore[] = [];
  const open = (options?: SqliteEventStoreOptions): SqliteEventStore => {
    const store = SqliteEventStore.open(file.path, options);
    opened.push(store);
    return store;
  };

  beforeEach(() => {
    file = temporaryFile();
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
    file.remove();
  });

  it('runs in WAL mode with synchronous FULL, so an acknowledged append survives power loss', () => {
    const { database } = open();
    expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(database.pragma('synchronous', { simple: true })).toBe(2);
    expect(database.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0);
  });

  it('starts empty: head position 0 and nothing to read', async () => {
    const store = open();
    expect(await store.headPosition()).toBe(0);
    expect(await store.readAll()).toEqual([]);
  });

  it('stamps createdAt with the injected clock', async () => {
    const store = open({ clock: { now: () => new Date('2030-01-02T03:04:05.678Z') } });
    await store.append('store-1', [{ type: 'StoreCreated', data: {} }]);
    expect((await store.readStream('store-1'))[0].createdAt).toBe('2030-01-02T03:04:05.678Z');
  });

  it('matches stream prefixes literally, even with GLOB wildcard characters', async () => {
    const store = open();
    await store.append('a*[b]?-1', [{ type: 'Literal', data: {} }]);
    await store.append('axb]z-1', [{ type: 'Wildcard', data: {} }]);
    const read = await store.readAll({ filter: { streamPrefixes: ['a*[b]?-'] } });
    expect(read.map((event) => event.type)).toEqual(['Literal']);
    expect(await store.readAll({ filter: { streamPrefixes: [] } })).toEqual([]);
  });

  it('wakes its live subscriptions on its own appends without waiting for the poll', async () => {
    const store = open({ pollIntervalMs: 60_000 });
    const delivered: RecordedEvent[] = [];
    let caughtUp!: () => void;
    const ready = new Promise<void>((resolve) => (caughtUp = resolve));
    let received!: () => void;
    const live = new Promise<void>((resolve) => (received = resolve));
    const subscription = store.subscribeToAll({
      onEvent: async (event) => {
        delivered.push(event);
        received();
      },
      onCaughtUp: () => caughtUp(),
    });
    await ready;
    await store.append('store-1', [{ type: 'StoreCreated', data: {} }]);
    await live;
    await subscription.stop();
    expect(delivered.map((event) => event.type)).toEqual(['StoreCreated']);
  });

  it('delivers to a live subscription an event appended by another OS process on the same file', async () => {
    const store = open({ pollIntervalMs: 10 });
    let caughtUp!: () => void;
    const ready = new Promise<void>((resolve) => (caughtUp = resolve));
    let received!: (event: RecordedEvent) => void;
    const delivered = new Promise<RecordedEvent>((resolve) => (received = resolve));
    const subscription = store.subscribeToAll({ onEvent: async (event) => received(event), onCaughtUp: () => caughtUp() });
    await ready;

    const result = await appendFromAnotherProcess(file.path, 'store-1', 'AppendedElsewhere');
    const event = await delivered;
    await subscription.stop();
    expect(event).toMatchObject({ stream: 'store-1', type: 'AppendedElsewhere', position: result.position });
    expect((event.data as { pid: number }).pid).not.toBe(process.pid);
  });

  it("reads what it committed itself from memory and another writer's events in between from the file, in order", async () => {
    const store = open({ pollIntervalMs: 10 });
    const other = open();
    await store.append('script-1', [{ type: 'Mine', data: { n: 1 } }, { type: 'Mine', data: { n: 2 } }]);
    await other.append('script-2', [{ type: 'Theirs', data: { n: 3 } }]);
    await store.append('script-1', [{ type: 'Mine', data: { n: 4 } }]);

    expect((await store.readAll()).map((event) => (event.data as { n: number }).n)).toEqual([1, 2, 3, 4]);
    expect((await store.readAll({ fromPosition: 3, filter: { eventTypes: ['Mine'] } })).map((event) => event.position)).toEqual([4]);
    const [first, again] = [await store.readAll(), await store.readAll()];
    expect(first[0].data).not.toBe(again[0].data); // each reader gets its own copy
  });

  it('checks the expected revision against what another process committed', async () => {
    const store = open();
    await appendFromAnotherProcess(file.path, 'domain-example.com', 'DomainReserved');
    await expect(
      store.append('domain-example.com', [{ type: 'DomainReserved', data: {} }], { expectedRevision: 'no_stream' }),
    ).rejects.toBeInstanceOf(WrongExpectedRevisionError);
  });

  it('commits the appends made in one turn in one transaction', async () => {
    const store = open();
    await store.append('store-0', [{ type: 'Alone', data: {} }]);
    await Promise.all(Array.from({ length: 10 }, (_, n) => store.append(`store-${n + 1}`, [{ type: 'Together', data: {} }])));
    expect(store.groupCommitStats()).toEqual({ commits: 2, writes: 11 });
  });

  it('splits a turn with more appends than maxGroupSize into several transactions, in order', async () => {
    const store = open({ maxGroupSize: 2 });
    const results = await Promise.all(Array.from({ length: 5 }, (_, n) => store.append(`store-${n}`, [{ type: 'Created', data: {} }])));
    expect(store.groupCommitStats()).toEqual({ commits: 3, writes: 5 });
    expect(results.map((result) => result.position)).toEqual([1, 2, 3, 4, 5]);
  });

  it('saves a checkpoint made among appends in their transaction, durable once its promise resolves', async () => {
    const store = open();
    const checkpoints = store.checkpoints();
    await Promise.all([store.append('store-1', [{ type: 'Created', data: {} }]), checkpoints.save('publisher:inventory', 1)]);
    expect(store.groupCommitStats()).toEqual({ commits: 1, writes: 2 });
    await store.close();
    expect(await open().checkpoints().load('publisher:inventory')).toBe(1);
  });

  it('rolls back every event of an append that fails midway, and only that append, in a group', async () => {
    const store = open();
    const duplicateId = uuidv7();
    await store.append('store-1', [{ id: duplicateId, type: 'First', data: {} }]);
    const [clean, failed] = await Promise.allSettled([
      store.append('store-2', [{ type: 'Kept', data: {} }]),
      store.append('store-3', [{ type: 'Inserted', data: {} }, { id: duplicateId, type: 'Duplicate', data: {} }]),
      store.append('store-2', [{ type: 'AlsoKept', data: {} }], { expectedRevision: 0 }),
    ]);
    expect(clean.status).toBe('fulfilled');
    expect((failed as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
    expect(await store.readStream('store-3')).toEqual([]);
    expect((await store.readStream('store-2')).map((event) => event.type)).toEqual(['Kept', 'AlsoKept']);
    expect(store.groupCommitStats().commits).toBe(2);
  });

  it('keeps every acknowledged append when the appending process is killed (SIGKILL) under load', async () => {
    const child = appendUntilKilled(file.path);
    const acknowledged: string[] = [];
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const enough = new Promise<void>((resolve) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        acknowledged.push(line);
        if (acknowledged.length === 3_000) {
          child.kill('SIGKILL');
          resolve();
        }
      });
    });
    await enough;
    await exited;

    const store = open();
    const all = await store.readAll();
    const stored = new Set(all.map((event) => `${event.stream} ${event.revision}`));
    const lost = acknowledged.filter((ack) => !stored.has(ack));
    expect(lost).toEqual([]);
    expect(acknowledged.length).toBeGreaterThanOrEqual(3_000);
    // It was killed mid-load, with group commits of many appends each.
    expect(new Set(all.map((event) => event.stream)).size).toBeGreaterThan(50);
  });

  it('keeps checkpoints in the same file, durable across reopening', async () => {
    const first = open();
    const checkpoints = first.checkpoints();
    expect(await checkpoints.load('alerts-projection')).toBeUndefined();
    await checkpoints.save('alerts-projection', 41);
    await checkpoints.save('alerts-projection', 42);
    await checkpoints.save('reports-projection', 7);
    expect(await checkpoints.load('alerts-projection')).toBe(42);
    await first.close();

    const reopened = open().checkpoints();
    expect(await reopened.load('alerts-projection')).toBe(42);
    expect(await reopened.load('reports-projection')).toBe(7);
    await reopened.save('alerts-projection', 0);
    expect(await reopened.load('alerts-projection')).toBe(0);
  });
});
