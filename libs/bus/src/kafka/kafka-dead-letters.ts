import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { KafkaLogger } from '@nestjs/microservices';
import { Kafka } from 'kafkajs';
import { DEAD_LETTER_TOPIC, newestListed, type DeadLetter, type DeadLetterLog } from '../dead-letter';
import type { KafkaBusConfig } from './kafka-options';

/** Longest a listing reads the topic before it answers with what it has. */
export const DEAD_LETTER_READ_TIMEOUT_MS = 15_000;

/**
 * Lists `bus.dead-letter` on Kafka for an operator: a consumer group of its own (a fresh id per listing, deleted
 * after) reads every partition from the beginning up to the end offsets taken when the listing started, so the
 * services' own groups and offsets are never touched. Every service's dead letters are in the one topic.
 */
export class KafkaDeadLetters implements DeadLetterLog {
  constructor(private readonly config: KafkaBusConfig) {}

  async list(): Promise<DeadLetter[]> {
    const kafka = new Kafka({
      clientId: `${this.config.clientId}-dead-letters`,
      brokers: this.config.brokers,
      logCreator: () => KafkaLogger(new Logger('KafkaDeadLetters')),
    });
    const admin = kafka.admin();
    await admin.connect();
    const groupId = `${this.config.clientId}-dead-letters-${randomUUID()}`;
    try {
      if (!(await admin.listTopics()).includes(DEAD_LETTER_TOPIC)) return [];
      // The next offset to be written, per partition: reading up to it reads everything there was.
      const ends = new Map(
        (await admin.fetchTopicOffsets(DEAD_LETTER_TOPIC)).filter(({ high, low }) => BigInt(high) > BigInt(low)).map(({ partition, high }) => [partition, BigInt(high)]),
      );
      if (ends.size === 0) return [];
      const letters = await this.read(kafka, groupId, ends);
      return newestListed(letters.sort((a, b) => a.at.localeCompare(b.at)));
    } finally {
      await admin.deleteGroups([groupId]).catch(() => undefined);
      await admin.disconnect();
    }
  }

  private async read(kafka: Kafka, groupId: string, ends: Map<number, bigint>): Promise<DeadLetter[]> {
    const consumer = kafka.consumer({ groupId });
    const letters: DeadLetter[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topic: DEAD_LETTER_TOPIC, fromBeginning: true });
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, DEAD_LETTER_READ_TIMEOUT_MS);
        void consumer.run({
          eachMessage: async ({ partition, message }) => {
            const letter = parseLetter(message.value);
            if (letter) letters.push(letter);
            if (BigInt(message.offset) + 1n >= (ends.get(partition) ?? 0n)) ends.delete(partition);
            if (ends.size === 0) {
              clearTimeout(timer);
              resolve();
            }
          },
        });
      });
    } finally {
      await consumer.disconnect();
    }
    return letters;
  }
}

/**
 * Nest's Kafka client sends the payload as JSON in the message value. Letters written before they carried a key
 * and a time list without them.
 */
function parseLetter(value: Buffer | null): DeadLetter | undefined {
  if (!value) return undefined;
  try {
    return { key: null, at: '', ...(JSON.parse(value.toString('utf8')) as Partial<DeadLetter>) } as DeadLetter;
  } catch {
    return undefined;
  }
}
