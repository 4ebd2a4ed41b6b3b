import type { Clock } from '@pss/kernel';
import { policyHeader, type RateLimitPolicy } from './rate-limit-policy';
import { TokenBucket, type RateLimitDecision } from './token-bucket';

/** How often buckets that have refilled are dropped. */
const SWEEP_INTERVAL_MS = 60 * 1000;
/** Buckets held at most (about 100 bytes each: some 10 MB); beyond, the oldest is forgotten and starts full again. */
export const MAX_TRACKED_BUCKETS = 100_000;

/**
 * A token bucket per API token, in this process's memory: in distributed mode each gateway replica limits on
 * its own, so a client spread over N replicas gets up to N times the rate. Buckets that have refilled are
 * dropped, so memory follows the tokens active in the last minute or so, not every token ever seen, and never
 * holds more than `maxBuckets` (forgetting a bucket only ever lets its owner through, never refuses anyone).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, TokenBucket>();
  private nextSweepAt = 0;
  /** `RateLimit-Policy` and `RateLimit-Limit`: the same on every answer, so written once. */
  readonly policyHeaders: Readonly<Record<'RateLimit-Policy' | 'RateLimit-Limit', string>>;

  constructor(
    readonly policy: RateLimitPolicy,
    private readonly clock: Clock,
    private readonly maxBuckets = MAX_TRACKED_BUCKETS,
  ) {
    this.policyHeaders = { 'RateLimit-Policy': policyHeader(policy), 'RateLimit-Limit': String(policy.burst) };
  }

  take(tokenId: string): RateLimitDecision {
    const now = this.clock.now().getTime();
    this.sweep(now);
    let bucket = this.buckets.get(tokenId);
    if (!bucket) {
      if (this.buckets.size >= this.maxBuckets) this.buckets.delete(this.buckets.keys().next().value!);
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
