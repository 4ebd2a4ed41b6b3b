import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { SqliteEventStore, type RecordedEvent } from '@pss/event-store';
import { MemoryReadStore, type AnyDocument, type ReadStore } from '@pss/read-store';
import { applyOnce } from './apply-once';
import type { Projection, ProjectionContext } from './projection';
import { ProjectionRunner } from './projection-runner';
import type { FenceTimings } from './rebuild-fence';
import { REBUILD_LEASES, type RebuildLeaseDocument } from './rebuild-lease';
import { REPLICA_PRESENCE } from './replica-presence';

interface Tally {
  _id: string;
  count: number;
}

/** Counts events per stream; `gate`, while set, holds every event it is handed. */
class Tallies implements Projection {
  readonly name = 'tallies';
  readonly filter = { streamPrefixes: ['tally-'] };
  readonly collections: Projection['collections'] = { tallies: [] };
  gate?: Promise<void>;

  async handle(event: RecordedEvent, context: ProjectionContext): Promise<void> {
    await this.gate;
    await applyOnce(context.collection<Tally>('tallies'), event.stream, event, { $inc: { count: 1 } }, { upsert: true });
  }
}

const silent = new Logger('test');
silent.error = () => undefined;
silent.warn = () => undefined;
const FAST: FenceTimings = { checkEveryMs: 50, presenceMs: 500, pauseWithinMs: 5_000 };

/** A replica's connection to the shared read store whose swap (`rename`) waits for `beforeRename`. */
function heldAtSwap(shared: ReadStore, beforeRename: () => Promise<void>, afterRename: () => void): ReadStore {
  return {
    collection: (name) => shared.collection(name),
    ensureIndexes: (name, indexes) => shared.ensureIndexes(name, indexes),
    drop: (name) => shared.drop(name),
    rename: async (from, to) => {
      await beforeRename();
      await shared.rename(from, to);
      afterRename();
    },
    listCollections: () => shared.listCollections(),
    close: async () => undefined,
  };
}

describe('A rebuild with other replicas writing the same read model', () => {
  let dir: string;
  let eventStore: SqliteEventStore;
  let readStore: MemoryReadStore;
  const runners: ProjectionRunner[] = [];

  const count = (stream: string, n = 1) => eventStore.append(stream, Array.from({ length: n }, () => ({ type: 'Counted', data: {} })));
  const tally = async (stream: string) => (await readStore.collection<Tally>('tallies').findOne({ _id: stream }))?.count;
  const replica = async (name: string, projection: Projection, store: ReadStore = readStore, timings = FAST) => {
    const runner = new ProjectionRunner(eventStore, store, silent, name, timings);
    runner.register(projection);
    runners.push(runner);
    await runner.start();
    await runner.catchUp();
    return runner;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pss-fence-'));
    eventStore = SqliteEventStore.open(join(dir, 'events.sqlite'));
    readStore = new MemoryReadStore();
  });

  afterEach(async () => {
    for (const runner of runners.splice(0)) await runner.stop();
    await eventStore.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses no event the other replica applies around the swap', async () => {
    await count('tally-x', 20);
    let atSwap!: () => void;
    const reachedSwap = new Promise<void>((resolve) => (atSwap = resolve));
    let allowSwap!: () => void;
    const swapAllowed = new Promise<void>((resolve) => (allowSwap = resolve));
    let swapped = false;
    const rebuilding = new Tallies();
    const a = await replica('replica-a', rebuilding, heldAtSwap(readStore, () => (atSwap(), swapAllowed), () => (swapped = true)));
    const b = await replica('replica-b', new Tallies());
    let openA!: () => void;
    const heldA = new Promise<void>((resolve) => (openA = resolve));

    // Once swapped, replica A's live projection is held: replica B gets to the next events first.
    const rebuilt = a.rebuild('tallies', () => swapped && (rebuilding.gate ??= heldA));
    await reachedSwap;
    const first = await count('tally-x');
    // Unfenced, B applies it to the collection the swap drops; fenced, it is paused and does not.
    await b.waitFor(first.position, undefined, 300);
    allowSwap();
    await rebuilt;
    const second = await count('tally-x');
    expect(await b.waitFor(second.position, undefined, 5_000)).toBe(true);
    openA();
    rebuilding.gate = undefined;
    expect(await a.waitFor(second.position, undefined, 5_000)).toBe(true);

    expect(await tally('tally-x')).toBe(22);
  });

  it('gives up, its read model untouched, when a present replica does not pause in time', async () => {
    await count('tally-x', 5);
    const a = await replica('replica-a', new Tallies(), readStore, { ...FAST, pauseWithinMs: 300 });
    // A replica that renews its presence but runs no fence (an older version, during a rolling upgrade).
    await readStore.collection<AnyDocument>(REPLICA_PRESENCE).upsert({ _id: 'replica-old', projections: ['tallies'], expires_at: Date.now() + 60_000, renewed_at: '' });

    await expect(a.rebuild('tallies', () => undefined)).rejects.toMatchObject({
      code: 'conflict',
      message: 'projection tallies was not swapped: replica replica-old did not pause it within 0.3 s',
    });

    expect((await readStore.listCollections()).filter((name) => name.endsWith('__rebuild'))).toEqual([]);
    const { position } = await count('tally-x');
    expect(await a.waitFor(position, undefined, 5_000)).toBe(true);
    expect(await tally('tally-x')).toBe(6);
  });

  it('does not wait for a replica whose presence expired (it crashed)', async () => {
    await count('tally-x', 5);
    const a = await replica('replica-a', new Tallies());
    await readStore.collection<AnyDocument>(REPLICA_PRESENCE).upsert({ _id: 'replica-dead', projections: ['tallies'], expires_at: Date.now() - 1, renewed_at: '' });

    await expect(a.rebuild('tallies', () => undefined)).resolves.toMatchObject({ events: 5 });
    expect(await tally('tally-x')).toBe(5);
  });

  it('keeps a replica paused while the fence stands, and lets it go once the rebuild that raised it died', async () => {
    await count('tally-x', 5);
    const leases = readStore.collection<RebuildLeaseDocument>(REBUILD_LEASES);
    await leases.insertOne({ _id: 'tallies', owner: 'replica-dead', expires_at: Date.now() + 60_000, renewed_at: '', swapping: true, paused: [] });
    const b = new ProjectionRunner(eventStore, readStore, silent, 'replica-b', FAST);
    b.register(new Tallies());
    runners.push(b);
    await b.start();

    // Paused from its start, before writing anything: it does not catch up.
    expect(await b.catchUp(300)).toBe(false);
    expect(await tally('tally-x')).toBeUndefined();
    expect((await leases.findOne({ _id: 'tallies' }))?.paused).toEqual(['replica-b']);
    const { position } = await count('tally-x');
    await leases.updateOne({ _id: 'tallies' }, { $set: { expires_at: Date.now() - 1 } });
    expect(await b.waitFor(position, undefined, 5_000)).toBe(true);
    expect(await tally('tally-x')).toBe(6);
  });
});
