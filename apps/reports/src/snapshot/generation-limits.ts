import { DomainError } from '@pss/kernel';

const MINUTE_MS = 60_000;

export interface GenerationLimits {
  /** Snapshots of one organization in the making at once. */
  concurrent: number;
  /** Snapshots one organization may start in any minute. */
  perMinute: number;
}

/**
 * Each GET /reports/pci without dates makes and stores a new snapshot, even for a read-only token (the spec's
 * behaviour): the cost one organization can put on the service's disk and CPU is bounded here, per organization,
 * so a loop of clients slows its own reports only. Scheduled runs are not counted: they are a few per store.
 */
export class GenerationLimiter {
  private readonly running = new Map<string, number>();
  /** Start times within the last minute, oldest first. */
  private readonly starts = new Map<string, number[]>();

  constructor(private readonly limits: GenerationLimits) {}

  /** Admits one generation for `orgId` at `now`, or throws 429 with when to try again; the caller must `release`. */
  admit(orgId: string, now: number): () => void {
    const recent = (this.starts.get(orgId) ?? []).filter((at) => at > now - MINUTE_MS);
    const running = this.running.get(orgId) ?? 0;
    if (running >= this.limits.concurrent) {
      throw limited(`At most ${this.limits.concurrent} reports of an organization are made at once; retry when one is done`, 1);
    }
    if (recent.length >= this.limits.perMinute) {
      const freesAt = recent[recent.length - this.limits.perMinute] + MINUTE_MS;
      throw limited(`At most ${this.limits.perMinute} new reports per minute per organization`, Math.max(1, Math.ceil((freesAt - now) / 1000)));
    }
    this.starts.set(orgId, [...recent, now]);
    this.running.set(orgId, running + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.running.get(orgId) ?? 1) - 1;
      if (left > 0) this.running.set(orgId, left);
      else this.running.delete(orgId);
    };
  }
}

const limited = (message: string, retryAfterSeconds: number): DomainError => new DomainError('rate_limited', message, undefined, retryAfterSeconds);
