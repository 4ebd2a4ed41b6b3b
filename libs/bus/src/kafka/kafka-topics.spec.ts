import { BUS_TOPIC_PARTITIONS, DEAD_LETTER_RETENTION_MS, ensureKafkaTopics, type KafkaBusConfig } from './kafka-options';

/** A stand-in for kafkajs' admin client (no broker here): what ensureKafkaTopics asks of the cluster. */
const mockAdmin = {
  connect: jest.fn(async () => undefined),
  disconnect: jest.fn(async () => undefined),
  listTopics: jest.fn(async () => ['inventory.store.create']),
  createTopics: jest.fn(async () => true),
  alterConfigs: jest.fn(async () => undefined),
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

  // Left to auto-creation, the topic had the broker's 7 days: an incident's letters were gone before a replay.
  it('creates bus.dead-letter with a retention of 90 days, and sets it on one a first letter created', async () => {
    const retention = [{ name: 'retention.ms', value: String(DEAD_LETTER_RETENTION_MS) }];
    mockAdmin.createTopics.mockClear();
    await ensureKafkaTopics(config, ['bus.dead-letter']);
    expect(mockAdmin.createTopics).toHaveBeenCalledWith({
      topics: [{ topic: 'bus.dead-letter', numPartitions: BUS_TOPIC_PARTITIONS, configEntries: retention }],
      waitForLeaders: true,
    });
    expect(DEAD_LETTER_RETENTION_MS).toBe(90 * 24 * 3600 * 1000);

    mockAdmin.listTopics.mockResolvedValueOnce(['bus.dead-letter']);
    mockAdmin.createTopics.mockClear();
    await ensureKafkaTopics(config, ['bus.dead-letter']);
    expect(mockAdmin.createTopics).not.toHaveBeenCalled();
    expect(mockAdmin.alterConfigs).toHaveBeenCalledWith({ validateOnly: false, resources: [{ type: 2, name: 'bus.dead-letter', configEntries: retention }] });
  });
});
