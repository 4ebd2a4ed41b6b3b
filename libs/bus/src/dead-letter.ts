import { isSerializedError } from '@pss/kernel';

/** Where an event goes after its handler failed every attempt, on every transport. */
export const DEAD_LETTER_TOPIC = 'bus.dead-letter';

/** Attempts an event handler gets before its event is dead-lettered. */
export const EVENT_HANDLER_ATTEMPTS = 5;

/** What the dead-letter topic carries: enough for an operator to see what failed, why and when, and to replay it. */
export interface DeadLetter {
  topic: string;
  /** The event's partition key (a store id, an organization id); null where the transport has none. */
  key: string | null;
  event: unknown;
  error: string;
  attempts: number;
  /** When the last attempt failed (ISO 8601). */
  at: string;
}

export interface DeadLetterFailure {
  topic: string;
  key: string | null;
  event: unknown;
  failure: unknown;
  at: Date;
}

export const deadLetter = ({ topic, key, event, failure, at }: DeadLetterFailure, attempts: number): DeadLetter => ({
  topic,
  key,
  event,
  error: isSerializedError(failure) ? `${failure.code}: ${failure.message}` : failure instanceof Error ? failure.message : String(failure),
  attempts,
  at: at.toISOString(),
});

/** Dead letters an operator lists (`npm run projections -- list`): the newest last, at most this many. */
export const DEAD_LETTERS_LISTED = 1_000;

/** Reads the dead-letter topic, for operators: every service's dead letters, the newest last. */
export interface DeadLetterLog {
  list(): Promise<DeadLetter[]>;
}

export const DEAD_LETTERS = Symbol('DeadLetters');

/** Keeps the newest `DEAD_LETTERS_LISTED` of a growing list. */
export const newestListed = <T>(letters: T[]): T[] => letters.slice(-DEAD_LETTERS_LISTED);
