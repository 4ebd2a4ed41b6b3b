import type { Clock } from '@pss/kernel';

/** A clock tests move by hand: expiry, retries and schedules without waiting. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: string | Date = '2026-01-15T10:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current += ms;
  }

  set(at: string | Date): void {
    this.current = new Date(at).getTime();
  }
}
