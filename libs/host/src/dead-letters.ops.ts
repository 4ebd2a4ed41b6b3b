import { Inject, Injectable, Logger } from '@nestjs/common';
import { BUS, DEAD_LETTERS, type Bus, type DeadLetter, type DeadLetterLog } from '@pss/bus';
import { OpsCommand, type OpsArgs, type OpsProgress } from '@pss/ops';

/** What an operator sees of a dead letter: where and why it failed, and when; the event itself stays on the topic. */
export type ListedDeadLetter = Omit<DeadLetter, 'event'>;

/** `npm run projections -- list` (and `dead-letters`): the events whose handlers gave up, from `bus.dead-letter`. */
@Injectable()
export class DeadLettersOps {
  private readonly logger = new Logger(DeadLettersOps.name);

  constructor(
    @Inject(DEAD_LETTERS) private readonly deadLetters: DeadLetterLog,
    @Inject(BUS) private readonly bus: Bus,
  ) {}

  @OpsCommand('bus.dead-letters')
  async list(): Promise<ListedDeadLetter[]> {
    return (await this.deadLetters.list()).map(({ topic, key, error, attempts, at }) => ({ topic, key, error, attempts, at }));
  }

  /**
   * `npm run projections -- dead-letters replay [--topic T] [--since ISO]`: publishes each listed dead letter's
   * event again on its topic, with its key, once its cause is fixed. Every consumer group of the topic gets it
   * again, which the bus allows (delivery is at least once and handlers are idempotent); so does a second replay.
   * A letter that fails again is dead-lettered again.
   */
  @OpsCommand('bus.dead-letters.replay')
  async replay(args: OpsArgs, progress: OpsProgress): Promise<{ replayed: number }> {
    const topic = typeof args.topic === 'string' ? args.topic : undefined;
    const since = typeof args.since === 'string' ? args.since : undefined;
    const letters = (await this.deadLetters.list()).filter((letter) => (!topic || letter.topic === topic) && (!since || letter.at >= since));
    for (const letter of letters) {
      await this.bus.publish(letter.topic, letter.event, letter.key === null ? {} : { key: letter.key });
      progress({ topic: letter.topic, key: letter.key, at: letter.at });
    }
    this.logger.log(`replayed ${letters.length} dead letters${topic ? ` of ${topic}` : ''}${since ? ` since ${since}` : ''}`);
    return { replayed: letters.length };
  }
}
