import { LruCache } from '@pss/kernel';

/**
 * How many new scripts (a script not seen before, or new content of a known one) the SDK may record per store:
 * each is an event, a read-your-writes wait on the request, and behind it a policy decision, alerts and a delivery
 * per channel. A real checkout has tens of scripts and changes a few per deploy, so these let a first visit or a
 * redeploy through in one go and turn a forged flood (the SDK key is public) into 429s.
 */
export interface NewScriptLimits {
  /** Recorded per batch at most, whatever the batch holds: bounds the work of one request. */
  perBatch: number;
  /** A store's sustained allowance... */
  perMinute: number;
  /** ...and what it may spend at once. */
  burst: number;
  /** Stores whose allowance is tracked; the least recently active are forgotten (they start full again). */
  trackedStores: number;
}

export const DEFAULT_NEW_SCRIPT_LIMITS: NewScriptLimits = { perBatch: 50, perMinute: 200, burst: 200, trackedStores: 50_000 };

/** Provider token to set other limits (a test that floods with fewer scripts, say); the defaults otherwise. */
export const NEW_SCRIPT_LIMITS = Symbol('NewScriptLimits');

const MINUTE_MS = 60_000;

export type Allowance = { granted: number; retryAfterSeconds?: number };

/** A token bucket per store, counted in new scripts; pure bookkeeping, time passed in. */
export class NewScriptBudget {
  private readonly buckets: LruCache<string, { credit: number; at: number }>;

  constructor(private readonly limits: NewScriptLimits = DEFAULT_NEW_SCRIPT_LIMITS) {
    this.buckets = new LruCache(limits.trackedStores);
  }

  /**
   * Grants up to `wanted` new scripts now (never more than a batch may record). When it grants fewer than
   * wanted, it says when to come back for the next one.
   */
  take(storeId: string, wanted: number, now: number): Allowance {
    const bucket = this.buckets.get(storeId) ?? { credit: this.limits.burst, at: now };
    const credit = Math.min(this.limits.burst, bucket.credit + (Math.max(0, now - bucket.at) * this.limits.perMinute) / MINUTE_MS);
    const granted = Math.min(wanted, this.limits.perBatch, Math.floor(credit));
    this.buckets.set(storeId, { credit: credit - granted, at: Math.max(bucket.at, now) });
    if (granted === wanted) return { granted };
    const missing = Math.max(1 - (credit - granted), 0);
    return { granted, retryAfterSeconds: Math.max(1, Math.ceil((missing * MINUTE_MS) / this.limits.perMinute / 1000)) };
  }
}
