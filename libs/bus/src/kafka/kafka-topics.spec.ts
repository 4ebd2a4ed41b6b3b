import { BUS_TOPIC_PARTITIONS, ensureKafkaTopics, type KafkaBusConfig } from './kafka-options';

/** A stand-in for kafkajs' admin client (no broker here): what ensureKafkaTopics asks of the cluster. */
const mockAdmin = {
  connect: jest.fn(async () => undefined),
  disconnect: jest.fn(async () => undefined),
  listTopics: jest.fn(async () => ['inventory.store.create']),
  createTopics: jest.fn(async () => true),
};

jest.mock('kafkajs', () => ({
  ...jest.requireActual('kafkajs'),
  Kafka: class {
    admin() {
      return mockAdmin;
    }
  },
}));

describe('topics created before a process consumes or sends', () => {
  const config: KafkaBusConfig = { kind: 'kafka', brokers: ['kafka:9092'], clientId: 'inventory', requestPatterns: [] };

  it('creates the missing ones with their partition count, whoever starts first, and leaves existing ones alone', async () => {
    await ensureKafkaTopics(config, ['inventory.store.create', 'inventory.store.create.reply']);

    expect(mockAdmin.createTopics).toHaveBeenCalledWith({
      topics: [{ topic: 'inventory.store.create.reply', numPartitions: BUS_TOPIC_PARTITIONS }],
      waitForLeaders: true,
    });
    expect(mockAdmin.disconnect).toHaveBeenCalled();
  });
});
