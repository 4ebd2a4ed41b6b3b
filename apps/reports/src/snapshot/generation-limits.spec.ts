import { GenerationLimiter } from './generation-limits';

const T0 = Date.parse('2026-11-23T12:00:00.000Z');

describe('limits on the report snapshots an organization makes', () => {
  it('admits as many at once as allowed, then 429 until one is done', () => {
    const limiter = new GenerationLimiter({ concurrent: 2, perMinute: 100 });
    const first = limiter.admit('org-a', T0);
    limiter.admit('org-a', T0);

    expect(() => limiter.admit('org-a', T0)).toThrow(expect.objectContaining({ code: 'rate_limited', retryAfterSeconds: 1 }));
    first();
    first();
    expect(() => limiter.admit('org-a', T0)).not.toThrow();
    expect(() => limiter.admit('org-a', T0)).toThrow(expect.objectContaining({ code: 'rate_limited' }));
  });

  it('counts starts per minute and says when the oldest one leaves the minute', () => {
    const limiter = new GenerationLimiter({ concurrent: 10, perMinute: 3 });
    limiter.admit('org-a', T0)();
    limiter.admit('org-a', T0 + 10_000)();
    limiter.admit('org-a', T0 + 20_000)();

    expect(() => limiter.admit('org-a', T0 + 30_000)).toThrow(expect.objectContaining({ code: 'rate_limited', retryAfterSeconds: 30 }));
    expect(() => limiter.admit('org-a', T0 + 60_001)).not.toThrow();
  });

  it('keeps each organization to its own limits', () => {
    const limiter = new GenerationLimiter({ concurrent: 1, perMinute: 1 });
    limiter.admit('org-a', T0);

    expect(() => limiter.admit('org-a', T0)).toThrow(expect.objectContaining({ code: 'rate_limited' }));
    expect(() => limiter.admit('org-b', T0)).not.toThrow();
  });
});
