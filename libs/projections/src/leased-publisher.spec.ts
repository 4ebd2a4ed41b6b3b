import type { Bus } from '@pss/bus';
import type { IntegrationEvent } from '@pss/contracts';
import { SqliteEventStore, type RecordedEvent } from '@pss/event-store';
import { MemoryReadStore } from '@pss/read-store';
import { eventually } from '@pss/testkit';
import { IntegrationPublisher, type IntegrationEventSource } from './integration-publisher';
import { LeasedPublisher } from './leased-publisher';

const silent = { log: () => undefined, warn: () => undefined, error: () => undefined };

/** Every `tick-` event as one fact carrying its position. */
const ticks: IntegrationEventSource = {
  name: 'ticks',
  filter: { streamPrefixes: ['tick-'] },
  toIntegrationEvents: ({ id, position, createdAt }: RecordedEvent) => [
    { id: `evt_${id}`, type: 'ticks.ticked', version: 1, source: 'ticks', org_id: 'org-1', store_id: null, occurred_at: createdAt, correlation_id: null, position, data: {} } as IntegrationEvent,
  ],
};

/** The broker both replicas publish to: which replica published which position. */
class SharedBroker {
  readonly published: Array<{ replica: string; position: number }> = [];

  busOf(replica: string): Bus {
    return {
      request: async () => {
        throw new Error('no commands here');
      },
      publish: async (_topic, payload) => {
        this.published.push({ replica, position: (payload as IntegrationEvent).position });
      },
    };
  }
}

/**
 * Issue 33, D10: two replicas of a service on one event store, read store and broker. Each used to publish every
 * fact, racing one checkpoint; one publishes now, and the other takes over where it stopped.
 */
describe('LeasedPublisher: one replica publishes a source', () => {
  const eventStore = SqliteEventStore.open(':memory:');
  const readStore = new MemoryReadStore();
  const broker = new SharedBroker();
  const replica = (name: string) =>
    new LeasedPublisher(ticks.name, () => new IntegrationPublisher(ticks, eventStore, eventStore.checkpoints(), broker.busOf(name), silent), readStore, name, silent);
  const tick = (n: number) => eventStore.append(`tick-${n}`, [{ type: 'Ticked', data: {} }]);

  afterAll(() => eventStore.close());

  it('publishes each fact from one replica, then from the other once the first stops', async () => {
    const first = replica('a');
    const second = replica('b');
    await first.start();
    await second.start();
    expect([first.active, second.active]).toEqual([true, false]);

    for (let n = 1; n <= 5; n += 1) await tick(n);
    await eventually(() => broker.published.length, (count) => count >= 5);
    await first.stop();
    for (let n = 6; n <= 8; n += 1) await tick(n);
    await eventually(() => broker.published.length, (count) => count >= 8, { timeoutMs: 15_000 });
    await second.stop();

    const positions = broker.published.map((fact) => fact.position);
    expect(new Set(positions).size).toBe(positions.length);
    expect(broker.published.slice(0, 5).map((fact) => fact.replica)).toEqual(['a', 'a', 'a', 'a', 'a']);
    expect(broker.published.slice(5).map((fact) => fact.replica)).toEqual(['b', 'b', 'b']);
  }, 20_000);
});
