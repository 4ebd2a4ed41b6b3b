import { Logger } from '@nestjs/common';
import { ClientKafka, KafkaLogger, KafkaOptions, Transport } from '@nestjs/microservices';
import { ConfigResourceTypes, Kafka, Partitioners } from 'kafkajs';
import type { WireFormat } from '../bus';
import type { BusConfig } from '../bus.port';
import { DEAD_LETTER_TOPIC } from '../dead-letter';

/** The Kafka wiring of the bus: options for Nest's Kafka server and client, and what they need from the cluster. */
export type KafkaBusConfig = Extract<BusConfig, { kind: 'kafka' }>;

/**
 * Partitions of the topics the bus creates. Every replica of a service needs a reply partition of its own (Nest's
 * reply partition assigner gives each member of the client group one), so this bounds the replicas per service.
 */
export const BUS_TOPIC_PARTITIONS = 6;

/**
 * How long `bus.dead-letter` keeps a letter: the broker's default, 7 days, would drop the letters of an incident
 * over a long weekend before anyone replayed them. Letters are few (only deterministic failures get there), so a
 * quarter costs little and outlasts any incident review.
 */
export const DEAD_LETTER_RETENTION_MS = 90 * 24 * 60 * 60 * 1_000;
const DEAD_LETTER_CONFIG = [{ name: 'retention.ms', value: String(DEAD_LETTER_RETENTION_MS) }];

/** Partitions one consumer works on at once; messages within a partition stay in order. */
export const PARTITIONS_CONSUMED_CONCURRENTLY = 3;

/** How long a client waits at start for its reply partitions before giving up. */
export const REPLY_PARTITIONS_TIMEOUT_MS = 30_000;

/** Nest's Kafka client names the reply topic of a pattern this way. */
export const replyTopicOf = (pattern: string): string => `${pattern}.reply`;

/**
 * Nest's Kafka serializer takes any object with a `key` or `value` property for a Kafka message, so a payload that
 * happens to have one would lose its other fields. Always sending the message shape avoids that and carries the key.
 */
export const kafkaWire: WireFormat = (payload, key) => ({ key, value: payload });

/**
 * Nest's server and client each join Kafka as `<clientId>-server` / `<clientId>-client`, as client and group id
 * alike (Nest appends those suffixes unless told otherwise; the names are spelled out here). A group that is new
 * starts from the beginning of its topics: for the server, events published before it first joined are not lost;
 * for the client, a reply sent before the group's first offsets were fixed would be skipped from "latest". The
 * default partitioner (murmur2 of the key, as Java clients) is named so that kafkajs does not warn on every start
 * about its v2 change of default.
 */
function memberOptions(config: KafkaBusConfig, role: 'server' | 'client') {
  const id = `${config.clientId}-${role}`;
  return {
    postfixId: '',
    client: { clientId: id, brokers: config.brokers },
    consumer: { groupId: id, allowAutoTopicCreation: true },
    subscribe: { fromBeginning: true },
    producer: { allowAutoTopicCreation: true, createPartitioner: Partitioners.DefaultPartitioner },
  };
}

/**
 * The server runs this service's handlers in the consumer group `<clientId>-server`: every replica of the service
 * shares it, so each command and event is handled once per service. A command that waited for a new group to
 * start has timed out at its caller, so command handlers must tolerate late duplicates, as with any at-least-once
 * bus.
 */
export function kafkaServerOptions(config: KafkaBusConfig): Required<KafkaOptions> {
  return {
    transport: Transport.KAFKA,
    options: { ...memberOptions(config, 'server'), run: { partitionsConsumedConcurrently: PARTITIONS_CONSUMED_CONCURRENTLY } },
  };
}

/**
 * The client sends commands and events. Its consumer reads the replies to this service's commands in the group
 * `<clientId>-client`, apart from the server's group; its replicas share that group and each is assigned reply
 * partitions of its own, which it names in every request so the answer comes back to it.
 */
export function kafkaClientOptions(config: KafkaBusConfig): Required<KafkaOptions> {
  return {
    transport: Transport.KAFKA,
    options: {
      ...memberOptions(config, 'client'),
      // A service that sends no commands needs no reply consumer (and no group to rebalance).
      producerOnlyMode: config.requestPatterns.length === 0,
    },
  };
}

/** A Kafka client subscribed to the replies of every command the service sends, as Nest requires before connect. */
export function createKafkaClient(config: KafkaBusConfig): ClientKafka {
  const client = new ClientKafka(kafkaClientOptions(config).options);
  config.requestPatterns.forEach(pattern => client.subscribeToResponseOf(pattern));
  return client;
}

/**
 * Connects the client once the request and reply topics exist and waits until its reply partitions are assigned:
 * a request sent before that fails at once in Nest ("did not subscribe to the corresponding reply topic"), and a
 * reply topic created by the first subscriber has a single partition, one replica's worth.
 */
export async function connectKafkaClient(client: ClientKafka, config: KafkaBusConfig): Promise<void> {
  const replyTopics = config.requestPatterns.map(replyTopicOf);
  const commands = [...new Set([...(config.commandPatterns ?? []), ...config.requestPatterns])];
  // Every process may dead-letter: the topic must exist with its retention before the first letter creates it.
  await ensureKafkaTopics(config, [...commands, ...commands.map(replyTopicOf), DEAD_LETTER_TOPIC]);
  await client.connect();
  if (replyTopics.length > 0) await replyPartitionsAssigned(client, replyTopics);
}

/**
 * Creates the topics that do not exist yet with BUS_TOPIC_PARTITIONS partitions each, `bus.dead-letter` with its
 * long retention; a dead-letter topic that exists (created by a first letter, with the broker's retention) gets it.
 */
export async function ensureKafkaTopics(config: KafkaBusConfig, topics: string[]): Promise<void> {
  if (topics.length === 0) return;
  const admin = new Kafka({
    clientId: `${config.clientId}-admin`,
    brokers: config.brokers,
    logCreator: () => KafkaLogger(new Logger('KafkaAdmin')),
  }).admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter(topic => !existing.has(topic));
    if (missing.length > 0) {
      await admin.createTopics({
        topics: missing.map(topic => ({ topic, numPartitions: BUS_TOPIC_PARTITIONS, ...(topic === DEAD_LETTER_TOPIC ? { configEntries: DEAD_LETTER_CONFIG } : {}) })),
        waitForLeaders: true,
      });
    }
    if (topics.includes(DEAD_LETTER_TOPIC) && existing.has(DEAD_LETTER_TOPIC)) {
      await admin.alterConfigs({ validateOnly: false, resources: [{ type: ConfigResourceTypes.TOPIC, name: DEAD_LETTER_TOPIC, configEntries: DEAD_LETTER_CONFIG }] });
    }
  } finally {
    await admin.disconnect();
  }
}

function replyPartitionsAssigned(client: ClientKafka, replyTopics: string[]): Promise<void> {
  const assigned = (): boolean => replyTopics.every(topic => client.getConsumerAssignments()[topic] !== undefined);
  if (assigned()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    // Registered after Nest's own GROUP_JOIN listener, so the assignments are up to date when this one runs.
    const stopListening = client.consumer.on(client.consumer.events.GROUP_JOIN, () => {
      if (!assigned()) return;
      clearTimeout(deadline);
      stopListening();
      resolve();
    });
    const deadline = setTimeout(() => {
      stopListening();
      reject(new Error(`No reply partitions of ${replyTopics.join(', ')} were assigned within ${REPLY_PARTITIONS_TIMEOUT_MS} ms`));
    }, REPLY_PARTITIONS_TIMEOUT_MS);
  });
}
