import { uuidv7 } from '@pss/kernel';
import { CONTAINER_IMAGES, CONTAINER_TIMEOUT_MS, describeWithContainers } from '@pss/testkit';
import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { eventStoreConformance } from '../event-store.conformance';
import { RecordedEvent } from '../event-store.port';
import { EventStoreDbEventStore } from './esdb-event-store';

const HTTP_PORT = 2113;

describeWithContainers(`EventStoreDbEventStore against ${CONTAINER_IMAGES.kurrentdb}`, () => {
  let container: StartedTestContainer;
  let connectionString: string;

  beforeAll(async () => {
    // KurrentDB speaks EventStoreDB's gRPC API unchanged (src/Protos/Grpc), so db-client 6 drives it; its data
    // stays in the container, which goes with the suite (MemDb is deprecated since 25.1).
    container = await new GenericContainer(CONTAINER_IMAGES.kurrentdb)
      .withEnvironment({
        KURRENTDB_INSECURE: 'true',
        // Standard projections write `$` link events into $all: the adapter must keep them out of the port.
        KURRENTDB_RUN_PROJECTIONS: 'All',
        KURRENTDB_START_STANDARD_PROJECTIONS: 'true',
      })
      .withExposedPorts(HTTP_PORT)
      .withWaitStrategy(Wait.forHttp('/health/live', HTTP_PORT).forStatusCodeMatching((status) => status < 300))
      .withStartupTimeout(CONTAINER_TIMEOUT_MS)
      .start();
    connectionString = `esdb://${container.getHost()}:${container.getMappedPort(HTTP_PORT)}?tls=false`;
  }, CONTAINER_TIMEOUT_MS);

  afterAll(async () => {
    await container?.stop();
  });

  eventStoreConformance('EventStoreDbEventStore', async () => {
    const store = EventStoreDbEventStore.connect(connectionString);
    return {
      store,
      openSecond: async () => EventStoreDbEventStore.connect(connectionString),
      cleanup: () => store.close(),
    };
  });

  describe('EventStoreDB specifics', () => {
    let store: EventStoreDbEventStore;

    beforeEach(() => {
      store = EventStoreDbEventStore.connect(connectionString);
    });

    afterEach(async () => {
      await store.close();
    });

    const isSystem = (event: RecordedEvent): boolean => event.type.startsWith('$') || event.stream.startsWith('$');

    it('never returns the server’s own $ events from reads or subscriptions', async () => {
      const { position } = await store.append(`probe-${uuidv7()}`, [{ type: 'Probed', data: {} }]);

      const read = await store.readAll();
      expect(read.length).toBeGreaterThan(0);
      expect(read.filter(isSystem)).toEqual([]);

      const delivered: RecordedEvent[] = [];
      const caughtUp = new Promise<void>((resolve, reject) => {
        const subscription = store.subscribeToAll({
          onEvent: async (event) => {
            delivered.push(event);
          },
          onCaughtUp: (at) => {
            if (at >= position) void subscription.stop().then(resolve);
          },
          onDropped: reject,
        });
      });
      await caughtUp;
      expect(delivered.map((event) => event.id)).toEqual(read.map((event) => event.id));
    });

    it('stamps createdAt with the injected clock', async () => {
      const clocked = EventStoreDbEventStore.connect(connectionString, {
        clock: { now: () => new Date('2030-01-02T03:04:05.678Z') },
      });
      try {
        const stream = `clocked-${uuidv7()}`;
        await clocked.append(stream, [{ type: 'Stamped', data: {}, metadata: { actor: 'system' } }]);
        const [event] = await store.readStream(stream);
        expect(event.createdAt).toBe('2030-01-02T03:04:05.678Z');
        expect(event.metadata).toEqual({ actor: 'system' });
      } finally {
        await clocked.close();
      }
    });
  });
});
