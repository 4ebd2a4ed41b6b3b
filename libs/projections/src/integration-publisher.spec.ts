import type { Bus } from '@pss/bus';
import type { IntegrationEvent } from '@pss/contracts';
import { SqliteEventStore, type RecordedEvent } from '@pss/event-store';
import { eventually, SparseEventStore } from '@pss/testkit';
import { IntegrationPublisher, type IntegrationEventSource } from './integration-publisher';

const silent = { log: () => undefined, warn: () => undefined, error: () => undefined };

/** One fact per `Noted` event, keyed by the store its stream names. */
const source: IntegrationEventSource = {
  name: 'notes',
  filter: { streamPrefixes: ['note-'] },
  toIntegrationEvents: (event: RecordedEvent): IntegrationEvent[] => [
    {
      id: `evt_${event.id}`,
      type: 'notes.noted',
      version: 1,
      source: 'notes',
      org_id: 'org-1',
      store_id: event.stream.split('-')[1],
      occurred_at: event.createdAt,
      correlation_id: null,
      position: event.position,
      data: event.data as Record<string, unknown>,
    },
  ],
};

/** A bus whose consumers take as long as the test says, recording what each store received in order. */
class SlowConsumersBus implements Bus {
  readonly received = new Map<string, number[]>();
  inFlight = 0;
  mostInFlight = 0;
  failNext = 0;
  /** Facts of this store are refused for as long as it is set. */
  refusing?: string;
  refusals = 0;

  async request(): Promise<never> {
    throw new Error('no commands here');
  }

  async publish(_topic: string, payload: unknown, options: { key?: string } = {}): Promise<void> {
    const fact = payload as IntegrationEvent<{ n: number }>;
    this.inFlight += 1;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    // Later facts of a store finish sooner, so only the window's per-key order keeps them in order.
    await new Promise((resolve) => setTimeout(resolve, 20 - (fact.data.n % 20)));
    this.inFlight -= 1;
    if (options.key === this.refusing) {
      this.refusals += 1;
      throw new Error('broker down');
    }
    if (this.failNext > 0) {
      this.failNext -= 1;
      throw new Error('consumer down');
    }
    const key = options.key ?? '';
    this.received.set(key, [...(this.received.get(key) ?? []), fact.data.n]);
  }
}

describe('IntegrationPublisher', () => {
  let eventStore: SqliteEventStore;
  let bus: SlowConsumersBus;

  beforeEach(async () => {
    eventStore = SqliteEventStore.open(':memory:');
    bus = new SlowConsumersBus();
    for (let n = 0; n < 60; n += 1) {
      await eventStore.append(`note-store${n % 3}-${n}`, [{ type: 'Noted', data: { n } }]);
    }
  });

  afterEach(() => eventStore.close());

  const publisher = () => new IntegrationPublisher(source, eventStore, eventStore.checkpoints(), bus, silent);
  const expectedOf = (store: number) => Array.from({ length: 20 }, (_, i) => i * 3 + store);

  it("delivers many facts at once, each store's in the order of the event store, and checkpoints the last", async () => {
    const running = publisher();
    await running.start();
    await eventually(() => running.publishedPosition, (position) => position === 60);
    await running.stop();

    for (const store of [0, 1, 2]) expect(bus.received.get(`store${store}`)).toEqual(expectedOf(store));
    expect(bus.mostInFlight).toBeGreaterThan(1);
    expect(await eventStore.checkpoints().load('publisher:notes')).toBe(60);
  });

  it('publishes a fact the bus refused again until it is taken, the store\'s later facts behind it', async () => {
    bus.failNext = 3;
    const running = publisher();
    await running.start();
    await eventually(() => running.publishedPosition, (position) => position === 60);
    await running.stop();

    for (const store of [0, 1, 2]) expect(bus.received.get(`store${store}`)).toEqual(expectedOf(store));
  });

  it('starts after its checkpoint: a restart delivers nothing already checkpointed', async () => {
    const first = publisher();
    await first.start();
    await eventually(() => first.publishedPosition, (position) => position === 60);
    await first.stop();
    bus.received.clear();

    await eventStore.append('note-store0-60', [{ type: 'Noted', data: { n: 60 } }]);
    const second = publisher();
    await second.start();
    await eventually(() => second.publishedPosition, (position) => position === 61);
    await second.stop();
    expect([...bus.received.entries()]).toEqual([['store0', [60]]]);
  });

  it('stopped while the bus refuses a store, checkpoints before its first fact not taken; the next start publishes from there', async () => {
    bus.refusing = 'store1';
    const first = publisher();
    await first.start();
    await eventually(() => bus.refusals, (refusals) => refusals >= 2);
    await first.stop();
    expect(await eventStore.checkpoints().load('publisher:notes')).toBe(1);

    bus.refusing = undefined;
    const second = publisher();
    await second.start();
    await eventually(() => second.publishedPosition, (position) => position === 60);
    await second.stop();
    expect(bus.received.get('store1')).toEqual(expectedOf(1));
  });
});

describe('IntegrationPublisher on EventStoreDB positions (far apart, only handed-out ones accepted back)', () => {
  let dense: SqliteEventStore;
  let eventStore: SparseEventStore;
  let head: number;
  const abandoned: Array<() => void> = [];

  beforeEach(async () => {
    dense = SqliteEventStore.open(':memory:');
    eventStore = new SparseEventStore(dense);
    for (let n = 0; n < 150; n += 1) {
      ({ position: head } = await eventStore.append(`note-store${n % 3}-${n}`, [{ type: 'Noted', data: { n } }]));
    }
  });

  afterEach(async () => {
    for (const release of abandoned.splice(0)) release();
    await dense.close();
  });

  const publisherOn = (bus: Bus) => new IntegrationPublisher(source, eventStore, dense.checkpoints(), bus, silent);
  const positions = async () => new Set((await eventStore.readAll()).map((event) => event.position));
  const restartPublishesTheRest = async (): Promise<void> => {
    const bus = new SlowConsumersBus();
    const restarted = publisherOn(bus);
    await restarted.start();
    await eventually(() => restarted.publishedPosition, (position) => position === head);
    await restarted.stop();
    expect(bus.received.get('store1')).toHaveLength(50);
  };

  it('stopped while the bus refuses a store, checkpoints an event position; the next start publishes the rest', async () => {
    const refusing = new SlowConsumersBus();
    refusing.refusing = 'store1';
    const first = publisherOn(refusing);
    await first.start();
    await eventually(() => refusing.refusals, (refusals) => refusals >= 2);
    await first.stop();
    const checkpoint = await dense.checkpoints().load('publisher:notes');
    expect(await positions()).toContain(checkpoint);

    await restartPublishesTheRest();
  });

  it('crashed while a store\'s fact hangs, leaves a checkpoint an event position; the restarted one publishes', async () => {
    const hanging = new SlowConsumersBus();
    let release = (): void => undefined;
    const hung = new Promise<void>((resolve) => (release = resolve));
    abandoned.push(release);
    const slowPublish = hanging.publish.bind(hanging);
    hanging.publish = async (topic, payload, options) => {
      if (options?.key === 'store1') await hung;
      return slowPublish(topic, payload, options);
    };
    // Never stopped: a crash (kill -9, OOM) leaves whatever the last periodic save wrote.
    await publisherOn(hanging).start();
    const checkpoint = await eventually(() => dense.checkpoints().load('publisher:notes'), (saved) => saved !== undefined);
    expect(await positions()).toContain(checkpoint);

    await restartPublishesTheRest();
  });

  it('counts as stalled while the store refuses its checkpoint (as /ready reports), and not once it subscribes', async () => {
    await dense.checkpoints().save('publisher:notes', 273);
    const refused = publisherOn(new SlowConsumersBus());
    await refused.start();
    await eventually(() => refused.stalled, (stalled) => stalled);
    await refused.stop();

    await dense.checkpoints().save('publisher:notes', 274);
    const healthy = publisherOn(new SlowConsumersBus());
    await healthy.start();
    await eventually(() => healthy.publishedPosition, (position) => position === head);
    expect(healthy.stalled).toBe(false);
    await healthy.stop();
  });
});
