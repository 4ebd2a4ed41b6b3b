/** How many requests a token may make: `perMinute` sustained, up to `burst` at once. */
export interface RateLimitPolicy {
  perMinute: number;
  burst: number;
}

/**
 * A burst of a tenth of the minute's allowance: a client may send six seconds' worth at once (120 requests at
 * the default), then at the sustained rate, one every 50 ms.
 */
export const rateLimitPolicy = (perMinute: number): RateLimitPolicy => ({ perMinute, burst: Math.ceil(perMinute / 10) });

/**
 * The policy as the IETF RateLimit headers draft writes it, quota and window in seconds: the bucket holds
 * `burst` requests and refills completely in `burst / perMinute` minutes, so `120;w=6` at the default is
 * 1200 a minute, 120 of them at once. `RateLimit-Limit` is the same quota, `RateLimit-Remaining` what is left.
 */
export const policyHeader = (policy: RateLimitPolicy): string => `${policy.burst};w=${Math.ceil((policy.burst * 60) / policy.perMinute)}`;
