/** Time comes from here, never from Date.now() in domain code, so expiry, retries and schedules are testable. */
export interface Clock {
  now(): Date;
}

export const CLOCK = Symbol('Clock');

export const systemClock: Clock = { now: () => new Date() };

/** ISO 8601 UTC with milliseconds, the one timestamp format of the API and the events. */
export const isoTime = (date: Date): string => date.toISOString();

export const addMilliseconds = (date: Date, ms: number): Date => new Date(date.getTime() + ms);
export const DAY_MS = 24 * 60 * 60 * 1000;
export const addDays = (date: Date, days: number): Date => addMilliseconds(date, days * DAY_MS);
