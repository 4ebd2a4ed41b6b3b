import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENT_STORE, SqliteEventStore, type EventStore } from '@pss/event-store';
import { Logger } from '@nestjs/common';
import { PlatformLifecycle } from '@pss/platform';
import { CHECKPOINT_COLLECTION, ProjectionRunner, ReadModelSnapshots, type Projection } from '@pss/projections';
import { MemoryReadStore, type AnyDocument, type ReadStore } from '@pss/read-store';
import { eventually, sri } from '@pss/testkit';
import { EmbeddedHarness } from './testing/embedded-harness';

const SCOPES = ['stores:write', 'scripts:read', 'scripts:review', 'alerts:read'];

/** Every projection's collections and position, as one read side holds them. */
async function readModels(runner: ProjectionRunner, readStore: ReadStore): Promise<Record<string, unknown[]>> {
  const models: Record<string, unknown[]> = {};
  for (const { projection, position } of runner.positions()) {
    models[`${CHECKPOINT_COLLECTION}.${projection.name}`] = [position];
    for (const name of Object.keys(projection.collections)) {
      models[name] = await readStore.collection<AnyDocument>(name).find({}, { sort: { _id: 1 } });
    }
  }
  return models;
}

/** The service's projections over the closed data directory's events: from the snapshot there, or replaying all. */
async function readSideOf(dataDir: string, projections: Projection[], from: 'snapshot' | 'events') {
  const eventStore = SqliteEventStore.open(join(dataDir, 'events.sqlite'));
  const readStore = new MemoryReadStore();
  const runner = new ProjectionRunner(eventStore, readStore, silent);
  for (const projection of projections) runner.register(projection);
  const snapshots = new ReadModelSnapshots(join(dataDir, 'read-models.snapshot'), readStore, runner, eventStore, silent);
  const restored = from === 'snapshot' ? (await snapshots.restore()).restored : [];
  await runner.start();
  await runner.catchUp();
  const models = await readModels(runner, readStore);
  await runner.stop();
  await eventStore.close();
  return { restored, models };
}

const silent = new Logger('test');
silent.log = () => undefined;
silent.warn = () => undefined;

describe('read-model snapshots across restarts (embedded)', () => {
  let dataDir: string;
  let service: EmbeddedHarness | undefined;
  const snapshot = () => join(dataDir, 'read-models.snapshot');

  const restart = async () => {
    await service?.close();
    service = await EmbeddedHarness.start({ dataDir });
    return service;
  };
  const checkout = (domain: string, build: string) => [
    { kind: 'script', src: `https://${domain}/static/app-${build}.js`, hash: sri(`app ${build}`), size_bytes: 1000 },
    { kind: 'script', src: 'https://sdk.mercadopago.com/js/v2', hash: sri('mp') },
    { kind: 'script', src: 'https://magentocore.net/mage.js', hash: sri('skimmer') },
  ];
  const alertCount = async (token: string, storeId: string) =>
    ((await service!.request('GET', `/api/v1/alerts?store_id=${storeId}`, { token })).body.data as unknown[]).length;
  /**
   * Waits until the effects of the writes have landed: the skimmer's alert (the last of the chain: ingestion,
   * publisher, alerts), then every publisher at the event store's head, so the next life starts on the same
   * events this one ends with.
   */
  const settled = async (token: string, storeId: string) => {
    await eventually(() => alertCount(token, storeId), (count) => count === 1);
    const eventStore = service!.app.get<EventStore>(EVENT_STORE);
    const lifecycle = service!.app.get(PlatformLifecycle);
    await eventually(
      async () => ({ head: await eventStore.headPosition(), published: Math.min(...lifecycle.publisherPositions().map((p) => p.position)) }),
      ({ head, published }) => published >= head,
    );
  };
  const scriptCount = async (token: string, storeId: string) =>
    ((await service!.request('GET', `/api/v1/scripts?store_id=${storeId}`, { token })).body.data as unknown[]).length;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'pss-snapshot-e2e-'));
  });

  afterEach(async () => {
    await service?.close();
    service = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a restart loads an older snapshot, catches up with what was written since, and ends where a full replay does', async () => {
    let running = await restart();
    const tenant = await running.tenant(SCOPES);
    const first = await running.createStore(tenant.token);
    expect((await running.reportSdk(first.sdk_key, checkout(first.domain, '1'))).status).toBe(202);
    await eventually(() => scriptCount(tenant.token, first.id), (count) => count === 3);
    await settled(tenant.token, first.id);

    running = await restart(); // the first life's snapshot, written at shutdown, is loaded
    expect(running.app.get(PlatformLifecycle).snapshotRestored).toMatchObject({ replayed: [] });
    const older = readFileSync(snapshot());
    const second = await running.createStore(tenant.token);
    expect((await running.reportSdk(second.sdk_key, checkout(second.domain, '2'))).status).toBe(202);
    expect((await running.reportSdk(first.sdk_key, checkout(first.domain, '3').slice(0, 2))).status).toBe(202);
    await eventually(() => scriptCount(tenant.token, first.id), (count) => count === 4);
    await eventually(() => scriptCount(tenant.token, second.id), (count) => count === 3);
    await settled(tenant.token, second.id);

    await running.close();
    service = undefined;
    writeFileSync(snapshot(), older); // as if the second life had died before its shutdown snapshot
    running = await restart();
    const restored = running.app.get(PlatformLifecycle).snapshotRestored;
    expect(restored?.restored.length).toBeGreaterThan(0);
    expect(restored?.replayed).toEqual([]);
    expect(await scriptCount(tenant.token, first.id)).toBe(4); // caught up with the second life's writes
    // The read-model projections (the default-policy seeder writes events through the service, no read model).
    const projections = running.app
      .get(ProjectionRunner)
      .positions()
      .map(({ projection }) => projection)
      .filter((projection) => Object.keys(projection.collections).length > 0);
    await running.close(); // its shutdown snapshot holds what it caught up to
    service = undefined;

    // Over the same closed event store (no timer of a running service appends meanwhile): the third life's
    // snapshot caught up to the head against every event replayed.
    const fromSnapshot = await readSideOf(dataDir, projections, 'snapshot');
    expect(fromSnapshot.restored).toHaveLength(projections.length);
    const replayed = await readSideOf(dataDir, projections, 'events');
    expect(fromSnapshot.models).toEqual(replayed.models);
    expect(existsSync(`${snapshot()}.discarded`)).toBe(false);
  });
});
