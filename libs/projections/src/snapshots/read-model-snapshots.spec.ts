import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { SqliteEventStore, type RecordedEvent } from '@pss/event-store';
import { MemoryReadStore, type AnyDocument } from '@pss/read-store';
import { applyOnce } from '../apply-once';
import { CHECKPOINT_COLLECTION, type Projection, type ProjectionContext } from '../projection';
import { ProjectionRunner } from '../projection-runner';
import { REPLICA_PRESENCE } from '../replica-presence';
import { ReadModelSnapshots, type RestoreSummary } from './read-model-snapshots';

/** Counts events per stream, remembering each position: a double or a missed delivery shows. */
class TallyProjection implements Projection {
  readonly name = 'tallies';
  readonly filter = { streamPrefixes: ['tally-'] };
  readonly collections: Projection['collections'] = { tallies: [{ key: { count: -1 } }] };
  handled = 0;

  async handle(event: RecordedEvent, context: ProjectionContext): Promise<void> {
    this.handled += 1;
    await applyOnce(context.collection('tallies'), event.stream, event, { $inc: { count: 1 }, $push: { seen: event.position } }, { upsert: true });
  }
}

/** The last label per stream, with the time it was set (a Date: the snapshot must keep types as stored). */
class LabelProjection implements Projection {
  readonly name = 'labels';
  readonly filter = { streamPrefixes: ['tally-'] };
  readonly collections: Projection['collections'] = { labels: [{ key: { label: 1 } }], label_history: [] };
  handled = 0;

  constructor(readonly version = 1) {}

  async handle(event: RecordedEvent, context: ProjectionContext): Promise<void> {
    this.handled += 1;
    const label = `label ${event.position % 7}`;
    await applyOnce(context.collection('labels'), event.stream, event, { $set: { label, at: new Date(Date.UTC(2026, 0, 1, 0, 0, event.position)) } }, { upsert: true });
    await applyOnce(context.collection('label_history'), label, event, { $inc: { times: 1 } }, { upsert: true });
  }
}

const silent = new Logger('test');
silent.log = () => undefined;
silent.warn = () => undefined;
silent.error = () => undefined;

interface Service {
  readStore: MemoryReadStore;
  runner: ProjectionRunner;
  snapshots: ReadModelSnapshots;
  projections: { tallies: TallyProjection; labels: LabelProjection };
  restored?: RestoreSummary;
}

describe('ReadModelSnapshots', () => {
  let dir: string;
  let file: string;
  let eventStore: SqliteEventStore;
  const started: Service[] = [];

  const append = async (events: number, store = eventStore) => {
    for (let i = 0; i < events; i += 1) await store.append(`tally-${i % 5}`, [{ type: 'Counted', data: {} }]);
  };

  /** One start of the service's read side: restore (or not), start, catch up. */
  async function start(options: { restore?: boolean; labelsVersion?: number; store?: SqliteEventStore } = {}): Promise<Service> {
    const store = options.store ?? eventStore;
    const readStore = new MemoryReadStore();
    const runner = new ProjectionRunner(store, readStore, silent);
    const projections = { tallies: new TallyProjection(), labels: new LabelProjection(options.labelsVersion) };
    runner.register(projections.tallies);
    runner.register(projections.labels);
    const snapshots = new ReadModelSnapshots(file, readStore, runner, store, silent);
    const service: Service = { readStore, runner, snapshots, projections };
    if (options.restore !== false) service.restored = await snapshots.restore();
    await runner.start();
    expect(await runner.catchUp()).toBe(true);
    started.push(service);
    return service;
  }

  async function stop(service: Service): Promise<void> {
    await service.runner.stop();
    await service.snapshots.stop();
    started.splice(started.indexOf(service), 1);
  }

  /** Every collection's documents, checkpoints without the time they were saved; not which replicas are up. */
  async function everything(readStore: MemoryReadStore): Promise<Record<string, unknown[]>> {
    const all: Record<string, unknown[]> = {};
    for (const name of await readStore.listCollections()) {
      if (name === REPLICA_PRESENCE) continue;
      const docs = await readStore.collection<AnyDocument>(name).find({}, { sort: { _id: 1 } });
      all[name] = name === CHECKPOINT_COLLECTION ? docs.map(({ _id, position }) => ({ _id, position })) : docs;
    }
    return all;
  }

  /** The read models of a full replay of the same events, for comparison. */
  async function fullReplay(store = eventStore): Promise<Record<string, unknown[]>> {
    const replay = await start({ restore: false, store });
    const state = await everything(replay.readStore);
    await replay.runner.stop();
    started.splice(started.indexOf(replay), 1);
    return state;
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pss-snapshots-'));
    file = join(dir, 'read-models.snapshot');
    eventStore = SqliteEventStore.open(join(dir, 'events.sqlite'));
  });

  afterEach(async () => {
    for (const service of started.splice(0)) await service.runner.stop();
    await eventStore.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the read models at shutdown and loads them at the next start without replaying an event', async () => {
    await append(40);
    const first = await start();
    expect(first.restored?.restored).toEqual([]);
    const before = await everything(first.readStore);
    await stop(first);
    expect(existsSync(file)).toBe(true);

    const second = await start();
    expect(second.restored).toMatchObject({ restored: ['tallies', 'labels'], replayed: [], position: 40 });
    expect(second.projections.tallies.handled + second.projections.labels.handled).toBe(0);
    expect(await everything(second.readStore)).toEqual(before);
    expect((await second.readStore.collection<AnyDocument>('labels').findOne({ _id: 'tally-1' }))?.at).toBeInstanceOf(Date);
  });

  it('catches up from the snapshot to the same read models a full replay builds', async () => {
    await append(30);
    const first = await start();
    await append(7); // after the snapshot's position, while the service runs
    await first.runner.catchUp();
    await first.snapshots.writeIfMovedBy(1, 'test');
    await first.runner.stop();
    started.splice(started.indexOf(first), 1);
    await append(25); // while the service is down

    const second = await start();
    expect(second.restored).toMatchObject({ restored: ['tallies', 'labels'], position: 37 });
    expect(second.projections.tallies.handled).toBe(25);
    expect(await everything(second.readStore)).toEqual(await fullReplay());
  });

  it('replays from events the read model of a projection whose version changed, and restores the others', async () => {
    await append(20);
    await stop(await start());
    const second = await start({ labelsVersion: 2 });
    expect(second.restored).toMatchObject({ restored: ['tallies'], replayed: ['labels'] });
    expect(second.projections.labels.handled).toBe(20);
    expect(second.projections.tallies.handled).toBe(0);
    expect(await everything(second.readStore)).toEqual(await fullReplay());
  });

  describe('never trusts a snapshot it cannot check: discards it and rebuilds from events', () => {
    async function expectDiscarded(): Promise<void> {
      const service = await start();
      expect(service.restored).toMatchObject({ restored: [], position: 0 });
      expect(service.projections.tallies.handled).toBe(await eventStore.headPosition());
      expect(existsSync(`${file}.discarded`)).toBe(true);
      expect(await everything(service.readStore)).toEqual(await fullReplay());
    }

    beforeEach(async () => {
      await append(30);
      await stop(await start());
    });

    it('left half-written by a process killed mid-write: the temporary file is removed, the last snapshot used', async () => {
      writeFileSync(`${file}.4242.tmp`, 'half a snapshot');
      const service = await start();
      expect(service.restored).toMatchObject({ restored: ['tallies', 'labels'] });
      expect(existsSync(`${file}.4242.tmp`)).toBe(false);
    });

    it('corrupt: a byte changed in the middle', async () => {
      const content = readFileSync(file);
      content[Math.floor(content.length / 2)] ^= 0xff;
      writeFileSync(file, content);
      await expectDiscarded();
    });

    it('truncated: a write cut short', async () => {
      truncateSync(file, Math.floor(readFileSync(file).length * 0.8));
      await expectDiscarded();
    });

    it('not a snapshot at all', async () => {
      writeFileSync(file, 'hello');
      await expectDiscarded();
    });

    it('of an older format', async () => {
      writeFileSync(file, withHeader(readFileSync(file), (header) => ({ ...header, format: 0 })));
      await expectDiscarded();
    });

    it('of a projection beyond the snapshot head', async () => {
      writeFileSync(
        file,
        withHeader(readFileSync(file), (header) => ({ ...header, projections: header.projections.map((p: { position: number }) => ({ ...p, position: 99 })) })),
      );
      await expectDiscarded();
    });

    it("taken beyond the event store's head (the store was replaced by an older copy)", async () => {
      await eventStore.close();
      rmSync(join(dir, 'events.sqlite'));
      eventStore = SqliteEventStore.open(join(dir, 'events.sqlite'));
      await append(10);
      await expectDiscarded();
    });

    it('of another event store with as many events', async () => {
      await eventStore.close();
      rmSync(join(dir, 'events.sqlite'));
      eventStore = SqliteEventStore.open(join(dir, 'events.sqlite'));
      await append(30); // the same positions, other events
      await expectDiscarded();
    });
  });
});

/**
 * The snapshot with its JSON header rewritten and its digest made valid again: what an older or a buggy writer
 * could have left, which the digest alone does not catch.
 */
function withHeader(content: Buffer, change: (header: { projections: Array<{ position: number }>; [key: string]: unknown }) => unknown): Buffer {
  const end = content.length - 32;
  const headerLength = content.readUInt32BE(end - 4);
  const body = content.subarray(0, end - 4 - headerLength);
  const header = Buffer.from(JSON.stringify(change(JSON.parse(content.subarray(end - 4 - headerLength, end - 4).toString('utf8')))));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  const unsigned = Buffer.concat([body, header, length]);
  return Buffer.concat([unsigned, createHash('sha256').update(unsigned).digest()]);
}
