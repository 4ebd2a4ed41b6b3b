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
