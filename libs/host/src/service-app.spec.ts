import { kafkaClientOptions, type KafkaBusConfig } from '@pss/bus';
import { loadConfig } from '@pss/config';
import { COMMAND_PATTERNS } from '@pss/contracts';
import { busConfigOf } from './service-app';

describe('the bus of each distributed service', () => {
  const config = loadConfig({ MODE: 'distributed', KAFKA_BROKERS: 'kafka:9092', BUS_REQUEST_TIMEOUT_MS: '7000', MONGO_URL: 'mongodb://mongo:27017', EVENTSTORE_URL: 'esdb://eventstore:2113?tls=false' });
  const kafka = (name: string) => busConfigOf({ name, config }) as KafkaBusConfig;

  it('gives reply topics to the gateway only, the one process that sends commands', () => {
    expect(kafka('api-gateway').requestPatterns).toEqual(COMMAND_PATTERNS);
    for (const service of ['inventory', 'alerts', 'reports', 'notifier']) {
      expect(kafka(service).requestPatterns).toEqual([]);
      // No reply consumer, no consumer group to rebalance.
      expect(kafkaClientOptions(kafka(service)).options).toMatchObject({ producerOnlyMode: true });
    }
    expect(kafkaClientOptions(kafka('api-gateway')).options).toMatchObject({ producerOnlyMode: false });
  });

  it('has every process create every command and reply topic, and wait BUS_REQUEST_TIMEOUT_MS for replies', () => {
    expect(kafka('notifier')).toMatchObject({ commandPatterns: COMMAND_PATTERNS, requestTimeoutMs: 7000, brokers: ['kafka:9092'], clientId: 'notifier' });
  });
});
