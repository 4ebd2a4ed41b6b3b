import type { Clock } from '@pss/kernel';
import type { RateLimitPolicy } from './rate-limit-policy';
import { TokenBucket, type RateLimitDecision } from './token-bucket';

/** How often buckets that have refilled are dropped. */
const SWEEP_INTERVAL_MS = 60 * 1000;

/**
 * A token bucket per API token, in this process's memory: in distributed mode each gateway replica limits on
 * its own, so a client spread over N replicas gets up to N times the rate. Buckets that have refilled are
 * dropped, so memory follows the tokens active in the last minute or so, not every token ever seen.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, TokenBucket>();
  private nextSweepAt = 0;

  constructor(
    readonly policy: RateLimitPolicy,
    private readonly clock: Clock,
  ) {}

  take(tokenId: string): RateLimitDecision {
    const now = this.clock.now().getTime();
    this.sweep(now);
    let bucket = this.buckets.get(tokenId);
    if (!bucket) {
      bucket = new TokenBucket(this.policy, now);
      this.buckets.set(tokenId, bucket);
    }
    return bucket.take(now);
  }

  /** How many tokens have a bucket. */
  get trackedTokens(): number {
    return this.buckets.size;
  }

  private sweep(now: number): void {
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + SWEEP_INTERVAL_MS;
    for (const [tokenId, bucket] of this.buckets) if (bucket.isFull(now)) this.buckets.delete(tokenId);
  }
}
