import type { RateLimitPolicy } from './rate-limit-policy';

const MINUTE_MS = 60 * 1000;

export type RateLimitDecision =
  | { allowed: true; remaining: number }
  | { allowed: false; retryAfterSeconds: number };

/**
 * One token's allowance. Counted in request-milliseconds so the arithmetic stays in exact integers: a request
 * costs a minute's worth (60 000), and every millisecond adds `perMinute`, the sustained rate, up to `burst`
 * requests' worth.
 */
export class TokenBucket {
  private credit: number;
  private updatedAt: number;

  constructor(
    private readonly policy: RateLimitPolicy,
    now: number,
  ) {
    this.credit = this.capacity;
    this.updatedAt = now;
  }

  take(now: number): RateLimitDecision {
    this.refill(now);
    if (this.credit < MINUTE_MS) {
      const waitMs = Math.ceil((MINUTE_MS - this.credit) / this.policy.perMinute);
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    }
    this.credit -= MINUTE_MS;
    return { allowed: true, remaining: Math.floor(this.credit / MINUTE_MS) };
  }

  /** A full bucket allows what a new one would: it can be forgotten. */
  isFull(now: number): boolean {
    this.refill(now);
    return this.credit === this.capacity;
  }

  private get capacity(): number {
    return this.policy.burst * MINUTE_MS;
  }

  private refill(now: number): void {
    const elapsed = Math.max(0, now - this.updatedAt); // a clock set back refills nothing
    this.credit = Math.min(this.capacity, this.credit + elapsed * this.policy.perMinute);
    this.updatedAt = now;
  }
}
