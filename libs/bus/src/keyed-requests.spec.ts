import type { ClientProxy } from '@nestjs/microservices';
import { of } from 'rxjs';
import { TransportBus } from './bus';
import { kafkaWire } from './kafka/kafka-options';

/** What a ClientProxy was handed for each request, answering each with `{}`. */
function recordingClient(): { client: ClientProxy; sent: unknown[] } {
  const sent: unknown[] = [];
  const client = { send: (_pattern: string, packet: unknown) => (sent.push(packet), of({})) } as unknown as ClientProxy;
  return { client, sent };
}

/**
 * Issue 33, D10: a request's key reaches the Kafka message, so Kafka's partitioner sends every command of one
 * key to one partition, and so to one replica of the consumer group.
 */
describe('Keyed requests on Kafka', () => {
  it('carries the key as the Kafka message key, the payload and its command metadata as the value', async () => {
    const { client, sent } = recordingClient();
    const bus = new TransportBus(client, kafkaWire);

    await bus.request('inventory.sdk.ingest', { storeId: 'store-1' }, { key: 'store-1' });
    await bus.request('inventory.store.get', { storeId: 'store-2' });

    expect(sent).toEqual([
      { key: 'store-1', value: { storeId: 'store-1', command: expect.objectContaining({ id: expect.any(String) }) } },
      { key: undefined, value: { storeId: 'store-2', command: expect.objectContaining({ id: expect.any(String) }) } },
    ]);
  });
});
