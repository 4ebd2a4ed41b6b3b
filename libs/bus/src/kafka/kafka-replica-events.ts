import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { KafkaLogger } from '@nestjs/microservices';
import { Kafka } from 'kafkajs';
import type { ReplicaEvents } from '../bus.port';
import { guarded } from '../replica-events';
import type { KafkaBusConfig } from './kafka-options';

/**
 * Distributed mode: a consumer in a group of its own per process (`<clientId>-replica-<uuid>`), so every replica
 * reads every message, where the service's shared group would hand each to one replica. It starts at the newest
 * offsets and commits none that matter: a restarted replica rebuilds from the read models, not from the topic.
 * Kafka forgets the group once it has been empty for its offsets retention.
 */
export class KafkaReplicaEvents implements ReplicaEvents {
  private readonly logger = new Logger('ReplicaEvents');

  constructor(private readonly config: KafkaBusConfig) {}

  async subscribe(topics: readonly string[], handler: (topic: string, payload: unknown) => void): Promise<() => Promise<void>> {
    const kafka = new Kafka({ clientId: `${this.config.clientId}-replica`, brokers: this.config.brokers, logCreator: () => KafkaLogger(new Logger('KafkaReplica')) });
    const consumer = kafka.consumer({ groupId: `${this.config.clientId}-replica-${randomUUID()}`, allowAutoTopicCreation: true });
    const safe = guarded(handler, this.logger);
    await consumer.connect();
    await consumer.subscribe({ topics: [...topics], fromBeginning: false });
    await consumer.run({
      eachMessage: async ({ topic, message }) => {
        if (message.value) safe(topic, JSON.parse(message.value.toString()));
      },
    });
    return () => consumer.disconnect();
  }
}
