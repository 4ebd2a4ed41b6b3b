/** How many attempts a key may make in a window. */
export interface AttemptLimit {
  attempts: number;
  windowMs: number;
}

/**
 * Fixed windows of attempts by key (`address:<ip>`, `account:<e-mail>`), in this process's memory: a brute force
 * against sign-in, redemption or recovery codes is slowed per address and per account. The gateway's token
 * buckets (apps/api-gateway/src/rate-limit) are the API's, keyed by token, and an app of their own.
 */
export class AttemptLimiter {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();

  constructor(private readonly limit: AttemptLimit) {}

  /** Counts an attempt; the seconds to wait when it is one too many, 0 when allowed. */
  attempt(key: string, now: Date): number {
    const at = now.getTime();
    const window = this.windows.get(key);
    if (!window || at - window.startedAt >= this.limit.windowMs) {
      this.sweep(at);
      this.windows.set(key, { startedAt: at, count: 1 });
      return 0;
    }
    window.count += 1;
    return window.count > this.limit.attempts ? Math.ceil((window.startedAt + this.limit.windowMs - at) / 1000) : 0;
  }

  private sweep(at: number): void {
    for (const [key, window] of this.windows) if (at - window.startedAt >= this.limit.windowMs) this.windows.delete(key);
  }
}

/** Sign-in, redemption and recovery together: 20 attempts per address and 10 per account in 15 minutes. */
export const PER_ADDRESS: AttemptLimit = { attempts: 20, windowMs: 15 * 60_000 };
export const PER_ACCOUNT: AttemptLimit = { attempts: 10, windowMs: 15 * 60_000 };
