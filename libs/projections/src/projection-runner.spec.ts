import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { SqliteEventStore, type EventStore, type RecordedEvent } from '@pss/event-store';
import { MemoryReadStore } from '@pss/read-store';
import { applyOnce } from './apply-once';
import { eventually, SparseEventStore } from '@pss/testkit';
import { ProjectionRunner } from './projection-runner';
import { REBUILD_LEASES, type RebuildLeaseDocument } from './rebuild-lease';
import type { Projection, ProjectionContext } from './projection';

interface Tally {
  _id: string;
  count: number;
  seen: number[];
}

/** Counts `Counted` events per stream: a counter is the easiest read model to corrupt by a double delivery. */
class TallyProjection implements Projection {
  readonly name = 'tallies';
  readonly filter = { streamPrefixes: ['tally-'] };
  readonly collections: Projection['collections'] = { tallies: [{ key: { count: -1 } }] };
  failuresToInject = 0;
  handled = 0;
  /** While set, every event waits for it: holds a rebuild mid-way. */
  gate?: Promise<void>;

  async handle(event: RecordedEvent, context: ProjectionContext): Promise<void> {
    await this.gate;
    if (this.failuresToInject > 0) {
      this.failuresToInject -= 1;
      throw new Error('injected failure');
    }
    this.handled += 1;
    await applyOnce(context.collection<Tally>('tallies'), event.stream, event, { $inc: { count: 1 }, $push: { seen: event.position } }, { upsert: true });
  }
}

const silent = new Logger('test');
silent.error = () => undefined;
silent.warn = () => undefined;

// Also on EventStoreDB's positions (far apart, only handed-out ones accepted back): a checkpoint a projection
// resumes from must be one the store gave it.
describe.each([
  ['dense positions (SQLite)', (file: string): EventStore => SqliteEventStore.open(file)],
  ['sparse positions (as EventStoreDB)', (file: string): EventStore => new SparseEventStore(SqliteEventStore.open(file))],
])('ProjectionRunner on %s', (_positions, open) => {
  let dir: string;
  let eventStore: EventStore;
  let readStore: MemoryReadStore;
  let runner: ProjectionRunner;
  let projection: TallyProjection;

  const count = (n: number, stream = 'tally-a') =>
    eventStore.append(stream, Array.from({ length: n }, () => ({ type: 'Counted', data: {} })));
  const tally = (stream = 'tally-a') => readStore.collection<Tally>('tallies').findOne({ _id: stream });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pss-runner-'));
    eventStore = open(join(dir, 'events.sqlite'));
    readStore = new MemoryReadStore();
    projection = new TallyProjection();
    runner = new ProjectionRunner(eventStore, readStore, silent);
    runner.register(projection);
  });

  afterEach(async () => {
    await runner.stop();
    await eventStore.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('catches up with stored events, then follows live appends; waitFor resolves at the write', async () => {
    await count(3);
    await runner.start();
    expect(await runner.catchUp()).toBe(true);
    expect((await tally())?.count).toBe(3);

    const { position } = await count(2);
    expect(await runner.waitFor(position, [{ stream: 'tally-a', type: 'Counted' }])).toBe(true);
    expect((await tally())?.count).toBe(5);
  });

  it('does not wait for projections a write does not concern', async () => {
    await runner.start();
    const { position } = await eventStore.append('other-1', [{ type: 'Ignored', data: {} }]);
    await expect(runner.waitFor(position + 1000, [{ stream: 'other-1', type: 'Ignored' }], 50)).resolves.toBe(true);
  });

  it('resubscribes after a drop and applies every event exactly once', async () => {
    await count(5);
    projection.failuresToInject = 2;
    await runner.start();
    const head = await eventStore.headPosition();
    expect(await runner.waitFor(head, undefined, 5000)).toBe(true);
    const result = await tally();
    expect(result?.count).toBe(5);
    expect(new Set(result?.seen).size).toBe(5);
  });

  it('changes nothing when an event is delivered twice', async () => {
    await count(1);
    await runner.start();
    await runner.catchUp();
    const [event] = await eventStore.readStream('tally-a');
    await projection.handle(event, { collection: (name) => readStore.collection(name) });
    expect((await tally())?.count).toBe(1);
  });

  it('resumes from its checkpoint after a restart instead of replaying everything', async () => {
    await count(4);
    await runner.start();
    await runner.catchUp();
    await runner.stop();
    expect(projection.handled).toBe(4);

    const restarted = new TallyProjection();
    runner = new ProjectionRunner(eventStore, readStore, silent);
    runner.register(restarted);
    await count(1);
    await runner.start();
    await runner.catchUp();
    expect(restarted.handled).toBe(1);
    expect((await tally())?.count).toBe(5);
  });

  it('rebuilds blue/green while appends go on, reporting progress and a final count', async () => {
    await count(1200, 'tally-a');
    await count(300, 'tally-b');
    await runner.start();
    await runner.catchUp();
    await readStore.collection<Tally>('tallies').updateOne({ _id: 'tally-a' }, { $set: { count: -1 } }); // corrupt it

    const progress: number[] = [];
    const rebuilding = runner.rebuild('tallies', (p) => progress.push(p.processed));
    await count(10, 'tally-b'); // a write during the rebuild
    const result = await rebuilding;
    const head = await eventStore.headPosition();
    await runner.waitFor(head);

    expect(result.events).toBeGreaterThanOrEqual(1500);
    expect(progress.length).toBeGreaterThan(0);
    expect((await tally('tally-a'))?.count).toBe(1200);
    expect((await tally('tally-b'))?.count).toBe(310);
    expect(await readStore.listCollections()).not.toContain('tallies__rebuild');
    const [status] = await runner.status();
    expect(status).toMatchObject({ name: 'tallies', lag: 0 });
  });

  it('rebuilds a read model of more documents than one batch holds in memory, each document written right', async () => {
    // 6,000 documents (a batch writes what it holds at 5,000), the hot one touched between all the others.
    const counted = { type: 'Counted', data: {} };
    await Promise.all(Array.from({ length: 6000 }, (_, i) => eventStore.append(`tally-${i}`, i % 2 ? [counted] : [counted, counted])));
    await count(500, 'tally-hot');
    await runner.start();
    await runner.catchUp();
    const live = await readStore.collection<Tally>('tallies').find({}, { sort: { _id: 1 } });

    const result = await runner.rebuild('tallies', () => undefined);

    expect(result.events).toBe(9500);
    expect(await readStore.collection<Tally>('tallies').find({}, { sort: { _id: 1 } })).toEqual(live);
    expect((await tally('tally-hot'))?.count).toBe(500);
    expect((await tally('tally-10'))?.seen).toHaveLength(2);
  });

  it('stops a cancelled rebuild, drops its shadow and keeps the live read model following appends', async () => {
    await count(3000);
    await runner.start();
    await runner.catchUp();
    const cancel = new AbortController();
    const rebuilding = runner.rebuild('tallies', () => undefined, cancel.signal);
    await new Promise((resolve) => setImmediate(resolve)); // under way: the replay yields between slices
    cancel.abort();
    await expect(rebuilding).rejects.toMatchObject({ code: 'cancelled' });
    expect(projection.handled).toBeLessThan(6000);
    expect(await readStore.listCollections()).not.toContain('tallies__rebuild');

    const { position } = await count(1);
    expect(await runner.waitFor(position, [{ stream: 'tally-a', type: 'Counted' }])).toBe(true);
    expect((await tally())?.count).toBe(3001);
    const [status] = await runner.status();
    expect(status.state).not.toBe('rebuilding');
  });

  describe('with other replicas sharing the read store', () => {
    const shadows = async () => (await readStore.listCollections()).filter((name) => name.endsWith('__rebuild'));
    const otherReplica = () => {
      const other = new ProjectionRunner(eventStore, readStore, silent, 'replica-b');
      other.register(new TallyProjection());
      return other;
    };

    it("leaves alone the shadows of another replica's rebuild, which completes; a second rebuild is refused", async () => {
      await count(50);
      await runner.start();
      await runner.catchUp();
      let open!: () => void;
      projection.gate = new Promise((resolve) => (open = resolve));
      const rebuilding = runner.rebuild('tallies', () => undefined);
      await eventually(shadows, (names) => names.length > 0);

      const other = otherReplica();
      await other.start(); // a restart of replica B while replica A rebuilds
      expect(await shadows()).toEqual(['tallies__rebuild']);
      await expect(other.rebuild('tallies', () => undefined)).rejects.toThrow(/already being rebuilt by replica/);

      open();
      projection.gate = undefined;
      expect((await rebuilding).events).toBe(50);
      expect((await tally())?.count).toBe(50);
      expect(await shadows()).toEqual([]);
      await other.stop();
    });

    it('drops shadows left by a replica that died mid-rebuild once its lease expired, or with no lease at all', async () => {
      const leases = readStore.collection<RebuildLeaseDocument>(REBUILD_LEASES);
      await readStore.collection('tallies__rebuild').insertOne({ _id: 'half-built' });
      await leases.insertOne({ _id: 'tallies', owner: 'replica-dead', expires_at: Date.now() + 60_000, renewed_at: new Date().toISOString() });
      const other = otherReplica();
      await other.start();
      expect(await shadows()).toEqual(['tallies__rebuild']); // still renewed: its replica may be alive
      await other.stop();

      await leases.updateOne({ _id: 'tallies' }, { $set: { expires_at: Date.now() - 1 } });
      await runner.start();
      expect(await shadows()).toEqual([]);
      expect(await leases.count({})).toBe(0);
      await runner.stop();

      await readStore.collection('tallies__rebuild').insertOne({ _id: 'half-built' });
      runner = new ProjectionRunner(eventStore, readStore, silent);
      runner.register(new TallyProjection());
      await runner.start();
      expect(await shadows()).toEqual([]);
    });
  });

  it('refuses to rebuild a projection it does not run', async () => {
    await runner.start();
    await expect(runner.rebuild('nope', () => undefined)).rejects.toThrow(/unknown projection nope/);
  });
});
