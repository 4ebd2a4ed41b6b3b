import { isSerializedError } from '@pss/kernel';

/** Where an event goes after its handler failed every attempt, on every transport. */
export const DEAD_LETTER_TOPIC = 'bus.dead-letter';

/** Attempts an event handler gets before its event is dead-lettered. */
export const EVENT_HANDLER_ATTEMPTS = 5;

/** What the dead-letter topic carries: enough for an operator to see what failed, why, and to replay it. */
export interface DeadLetter {
  topic: string;
  event: unknown;
  error: string;
  attempts: number;
}

export const deadLetter = (topic: string, event: unknown, failure: unknown, attempts: number): DeadLetter => ({
  topic,
  event,
  error: isSerializedError(failure) ? `${failure.code}: ${failure.message}` : failure instanceof Error ? failure.message : String(failure),
  attempts,
});
