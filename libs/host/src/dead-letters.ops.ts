import { Inject, Injectable } from '@nestjs/common';
import { DEAD_LETTERS, type DeadLetter, type DeadLetterLog } from '@pss/bus';
import { OpsCommand } from '@pss/ops';

/** What an operator sees of a dead letter: where and why it failed, and when; the event itself stays on the topic. */
export type ListedDeadLetter = Omit<DeadLetter, 'event'>;

/** `npm run projections -- list` (and `dead-letters`): the events whose handlers gave up, from `bus.dead-letter`. */
@Injectable()
export class DeadLettersOps {
  constructor(@Inject(DEAD_LETTERS) private readonly deadLetters: DeadLetterLog) {}

  @OpsCommand('bus.dead-letters')
  async list(): Promise<ListedDeadLetter[]> {
    return (await this.deadLetters.list()).map(({ topic, key, error, attempts, at }) => ({ topic, key, error, attempts, at }));
  }
}
