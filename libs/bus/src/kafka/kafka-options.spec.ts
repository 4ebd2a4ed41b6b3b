import { Partitioners } from 'kafkajs';
import { kafkaClientOptions, kafkaServerOptions, PARTITIONS_CONSUMED_CONCURRENTLY, type KafkaBusConfig } from './kafka-options';

describe("the Kafka options of Nest's server and client", () => {
  const config: KafkaBusConfig = { kind: 'kafka', brokers: ['kafka:9092'], clientId: 'inventory', requestPatterns: ['inventory.store.create'] };
  const server = kafkaServerOptions(config).options;
  const client = kafkaClientOptions(config).options;

  it.each([
    ['server', server, 'inventory-server'],
    ['client', client, 'inventory-client'],
  ])('names the %s apart, as client and group id alike, reading a new group from the beginning', (_role, options, id) => {
    expect(options).toMatchObject({
      postfixId: '',
      client: { clientId: id, brokers: ['kafka:9092'] },
      consumer: { groupId: id, allowAutoTopicCreation: true },
      subscribe: { fromBeginning: true },
      producer: { allowAutoTopicCreation: true, createPartitioner: Partitioners.DefaultPartitioner },
    });
  });

  it('runs handlers on the server only, and gives the client a reply consumer when it sends commands', () => {
    expect(server).toMatchObject({ run: { partitionsConsumedConcurrently: PARTITIONS_CONSUMED_CONCURRENTLY } });
    expect(client).not.toHaveProperty('run');
    expect(client).toMatchObject({ producerOnlyMode: false });
  });
});
