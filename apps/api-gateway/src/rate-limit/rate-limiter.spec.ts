import { ManualClock } from '@pss/testkit';
import { policyHeader, rateLimitPolicy } from './rate-limit-policy';
import { RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  const perMinute = 600; // one request every 100 ms, a burst of 60
  let clock: ManualClock;
  let limiter: RateLimiter;

  beforeEach(() => {
    clock = new ManualClock();
    limiter = new RateLimiter(rateLimitPolicy(perMinute), clock);
  });

  const takeMany = (tokenId: string, count: number) => Array.from({ length: count }, () => limiter.take(tokenId));

  it('allows the burst at once, counting down what remains', () => {
    const decisions = takeMany('token-a', 60);
    expect(decisions.every((decision) => decision.allowed)).toBe(true);
    expect(decisions[0]).toEqual({ allowed: true, remaining: 59 });
    expect(decisions[59]).toEqual({ allowed: true, remaining: 0 });
  });

  it('refuses the request after the burst, saying when to retry (whole seconds, at least one)', () => {
    takeMany('token-a', 60);
    expect(limiter.take('token-a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('refills at the sustained rate', () => {
    takeMany('token-a', 60);
    clock.advance(99);
    expect(limiter.take('token-a').allowed).toBe(false);
    clock.advance(1);
    expect(limiter.take('token-a')).toEqual({ allowed: true, remaining: 0 });
    clock.advance(1000);
    expect(takeMany('token-a', 11).map((decision) => decision.allowed)).toEqual([...Array(10).fill(true), false]);
  });

  it('refills up to the burst, never beyond', () => {
    takeMany('token-a', 60);
    clock.advance(60 * 60 * 1000);
    expect(takeMany('token-a', 61).filter((decision) => decision.allowed)).toHaveLength(60);
  });

  it('rounds a long wait up to whole seconds', () => {
    const slow = new RateLimiter(rateLimitPolicy(1), clock); // one request a minute, a burst of one
    expect(slow.take('token-a').allowed).toBe(true);
    clock.advance(30_500);
    expect(slow.take('token-a')).toEqual({ allowed: false, retryAfterSeconds: 30 });
  });

  it('limits each token on its own', () => {
    takeMany('token-a', 60);
    expect(limiter.take('token-a').allowed).toBe(false);
    expect(limiter.take('token-b')).toEqual({ allowed: true, remaining: 59 });
  });

  it('forgets tokens whose bucket has refilled', () => {
    takeMany('token-a', 60);
    limiter.take('token-b');
    expect(limiter.trackedTokens).toBe(2);
    clock.advance(60 * 1000); // token-b refilled after 100 ms, token-a after 6 s
    limiter.take('token-c');
    expect(limiter.trackedTokens).toBe(1);
  });

  it('never tracks more than its maximum of buckets, however many tokens come within a minute', () => {
    const small = new RateLimiter(rateLimitPolicy(1200), clock, 3);
    for (let n = 0; n < 100; n += 1) small.take(`token-${n}`);
    expect(small.trackedTokens).toBe(3);
  });
});

describe('rate limit policy', () => {
  it('allows a tenth of the minute at once', () => {
    expect(rateLimitPolicy(1200)).toEqual({ perMinute: 1200, burst: 120 });
    expect(rateLimitPolicy(5)).toEqual({ perMinute: 5, burst: 1 });
  });

  it('is written as the bucket and the seconds it takes to refill: 1200 a minute is 120 per 6 seconds', () => {
    expect(policyHeader(rateLimitPolicy(1200))).toBe('120;w=6');
    expect(policyHeader(rateLimitPolicy(6000))).toBe('600;w=6');
    // One request every 12 seconds; a window never shorter than the refill (rounded up).
    expect(policyHeader(rateLimitPolicy(5))).toBe('1;w=12');
    expect(policyHeader(rateLimitPolicy(7))).toBe('1;w=9');
  });
});
