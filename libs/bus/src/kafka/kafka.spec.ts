import { INestApplication } from '@nestjs/common';
import { KafkaHeaders, KafkaParser, ServerKafka } from '@nestjs/microservices';
import { KafkaRequestDeserializer } from '@nestjs/microservices/deserializers/kafka-request.deserializer';
import { KafkaResponseDeserializer } from '@nestjs/microservices/deserializers/kafka-response.deserializer';
import type { Message } from '@nestjs/microservices/external/kafka.interface';
import { KafkaRequestSerializer } from '@nestjs/microservices/serializers/kafka-request.serializer';
import { DomainError, serializeError } from '@pss/kernel';
import { CONTAINER_TIMEOUT_MS, describeWithContainers, startKafka, type StartedKafka } from '@pss/testkit';
import { bootBusApp, BusAppParts, busConformance, CONFORMANCE_REQUEST_PATTERNS } from '../bus.conformance';
import { Bus, BUS, BusConfig } from '../bus.port';
import { DEAD_LETTERS, type DeadLetterLog } from '../dead-letter';
import { kafkaWire } from './kafka-options';

// Nest's own Kafka codec, run without a broker: what the bus puts on the wire and what comes off it.
describe('Kafka wire format', () => {
  const deliveredToHandler = (message: unknown): unknown => {
    const record = new KafkaRequestSerializer().serialize(message);
    const received = new KafkaParser().parse({ ...record, topic: 'test.echo', partition: 0 });
    return new KafkaRequestDeserializer().deserialize(received, { channel: 'test.echo' }).data;
  };

  it('hands the handler the whole payload, even one with key and value fields of its own', () => {
    const payload = { key: 'k-1', value: { amount: 42 } };

    expect(deliveredToHandler(kafkaWire(payload))).toEqual(payload);
    // What the envelope is for: sent bare, Nest takes such a payload for the Kafka message itself.
    expect(deliveredToHandler({ ...payload })).toEqual({ amount: 42 });
  });

  it('sends the partition key as the Kafka message key', () => {
    expect(new KafkaRequestSerializer().serialize(kafkaWire({ id: 'e-1' }, 'store-1'))).toMatchObject({ key: 'store-1' });
  });

  it("brings a handler's error back as the plain SerializedError the bus maps to a DomainError", () => {
    const error = serializeError(new DomainError('conflict', 'The store already exists', [{ field: 'x', message: 'y' }]));
    const reply: Message = { value: null, headers: { [KafkaHeaders.CORRELATION_ID]: '1' } };

    new ServerKafka({}).assignErrorHeader({ id: '1', err: error }, reply);
    const received = new KafkaResponseDeserializer().deserialize(new KafkaParser().parse(reply));

    expect(received.err).toEqual(error);
    expect(received.err).not.toBeInstanceOf(Error);
  });
});

describeWithContainers('Kafka bus', () => {
  // Apache's Kafka 4 image in KRaft mode, the release docker-compose.yml runs.
  let kafka: StartedKafka | undefined;

  beforeAll(async () => {
    kafka = await startKafka();
  }, CONTAINER_TIMEOUT_MS);

  afterAll(async () => {
    await kafka?.container.stop();
  }, CONTAINER_TIMEOUT_MS);

  busConformance(
    'kafka',
    async ({ commands, consumerGroups, eventLog }) => {
      if (!kafka) throw new Error('Kafka did not start');
      const { brokers } = kafka;
      const service = (name: string, requestPatterns: string[] = []): BusConfig => ({
        kind: 'kafka',
        brokers,
        clientId: `conformance-${name}`,
        requestPatterns,
      });
      const parts = (controller: (typeof consumerGroups)[string]): BusAppParts => ({
        controllers: [controller],
        providers: [eventLog],
        logger: ['error', 'warn'],
      });
      // A consumer group on Kafka is a service of its own: one application, with its own group id, per group.
      const apps = await bootAll([
        () => bootBusApp(service('commands', CONFORMANCE_REQUEST_PATTERNS), parts(commands)),
        ...Object.entries(consumerGroups).map(([group, consumer]) => () => bootBusApp(service(group), parts(consumer))),
      ]);
      return {
        bus: apps[0].get<Bus>(BUS),
        deadLetters: apps[0].get<DeadLetterLog>(DEAD_LETTERS),
        close: async () => {
          await Promise.all(apps.map(app => app.close()));
        },
      };
    },
    // The first messages wait for the consumer groups to join.
    { patienceMs: 30_000 },
  );
});

/** Boots the applications side by side; if one fails, closes those that started. */
async function bootAll(boots: Array<() => Promise<INestApplication>>): Promise<INestApplication[]> {
  const results = await Promise.allSettled(boots.map(boot => boot()));
  const apps = results.flatMap(result => (result.status === 'fulfilled' ? [result.value] : []));
  const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (!failure) return apps;
  await Promise.all(apps.map(app => app.close()));
  throw failure.reason;
}
