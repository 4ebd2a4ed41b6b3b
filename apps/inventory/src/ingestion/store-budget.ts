import { LruCache } from '@pss/kernel';

/**
 * How much new the SDK may record per store. New scripts (a script not seen before, or new content of a known
 * one): each is an event, a read-your-writes wait on the request, and behind it a policy decision, alerts and a
 * delivery per channel. New signals (a CSP violation, an iframe, a recipient, a card-field read or page headers
 * this process has not seen for the store): each may open an alert, delivered to every channel. A real checkout
 * has tens of scripts and a handful of signals, and changes a few per deploy, so these let a first visit or a
 * redeploy through in one go; a forged flood on the public key spends them and its surplus is rejected one by one.
 */
export interface BudgetLimits {
  /** Recorded per batch at most, whatever the batch holds: bounds the work of one request. */
  perBatch: number;
  /** A store's sustained allowance... */
  perMinute: number;
  /** ...and what it may spend at once. */
  burst: number;
  /** Stores whose allowance is tracked; the least recently active are forgotten (they start full again). */
  trackedStores: number;
  /**
   * The part of a store's allowance one client address (an IPv6 /64) may spend, as of its request rate: one
   * address posting junk on the public key must leave the rest to the store's real pages (docs/decisions.md).
   */
  clientShare: number;
}

export const DEFAULT_NEW_SCRIPT_LIMITS: BudgetLimits = { perBatch: 50, perMinute: 200, burst: 200, trackedStores: 50_000, clientShare: 0.1 };
export const DEFAULT_NEW_SIGNAL_LIMITS: BudgetLimits = { perBatch: 50, perMinute: 200, burst: 200, trackedStores: 50_000, clientShare: 0.1 };

/** Provider tokens to set other limits (a test that floods with fewer items, say); the defaults otherwise. */
export const NEW_SCRIPT_LIMITS = Symbol('NewScriptLimits');
export const NEW_SIGNAL_LIMITS = Symbol('NewSignalLimits');

const MINUTE_MS = 60_000;

export type Allowance = { granted: number; retryAfterSeconds?: number };

/** A token bucket per store (or per store and client), counted in new items; pure bookkeeping, time passed in. */
export class StoreBudget {
  private readonly buckets: LruCache<string, { credit: number; at: number }>;

  constructor(private readonly limits: Omit<BudgetLimits, 'clientShare'>) {
    this.buckets = new LruCache(limits.trackedStores);
  }

  /**
   * Grants up to `wanted` new items now (never more than a batch may record). When it grants fewer than
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

  /** Gives back what `take` granted and was not spent after all (another budget refused the items). */
  refund(storeId: string, count: number): void {
    const bucket = this.buckets.get(storeId);
    if (bucket) this.buckets.set(storeId, { credit: Math.min(this.limits.burst, bucket.credit + count), at: bucket.at });
  }
}
