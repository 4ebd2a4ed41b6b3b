import { ManualClock } from '@pss/testkit';
import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';

describe('rate limit per token (HTTP, embedded)', () => {
  const clock = new ManualClock();
  let service: EmbeddedHarness;

  beforeAll(async () => {
    // One a second, a burst of 6.
    service = await EmbeddedHarness.start({ clock, env: { RATE_LIMIT_PER_MINUTE: '60' } });
  });
  afterAll(() => service.close());

  const freshToken = async () => (await service.tenant(['stores:read'])).token;
  const getMany = async (url: string, token: string, count: number) => {
    const answers = [];
    for (let i = 0; i < count; i += 1) answers.push(await service.request('GET', url, { token }));
    return answers;
  };

  it('allows the burst, saying how much is left', async () => {
    const answers = await getMany('/api/v1/stores', await freshToken(), 6);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    // 60 a minute as a bucket of 6 refilled in 6 seconds (IETF RateLimit draft: quota;w=window).
    expect(answers[0].headers['ratelimit-policy']).toBe('6;w=6');
    expect(answers[0].headers['ratelimit-limit']).toBe('6');
    expect(answers.map((answer) => answer.headers['ratelimit-remaining'])).toEqual(['5', '4', '3', '2', '1', '0']);
  });

  it('refuses the next request with 429 rate_limited and Retry-After', async () => {
    const token = await freshToken();
    await getMany('/api/v1/stores', token, 6);
    const refused = await service.request('GET', '/api/v1/stores', { token });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: { code: 'rate_limited', message: 'Rate limit exceeded; retry after 1 seconds' } });
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers['ratelimit-policy']).toBe('6;w=6');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    const metrics = await service.request('GET', '/metrics');
    expect(metrics.text).toMatch(/^pss_rate_limit_refusals_total\{limit="api_token"\} [1-9]/m);
  });

  it('counts refused requests too, and allows again once refilled', async () => {
    const token = await freshToken();
    await getMany('/api/v1/stores/01900000-0000-7000-8000-000000000000', token, 6);
    expect((await service.request('GET', '/api/v1/stores', { token })).status).toBe(429);
    clock.advance(1000);
    expect((await service.request('GET', '/api/v1/stores', { token })).status).toBe(200);
    expect((await service.request('GET', '/api/v1/stores', { token })).status).toBe(429);
  });

  it('limits each token on its own', async () => {
    await getMany('/api/v1/stores', await freshToken(), 7);
    expect((await service.request('GET', '/api/v1/stores', { token: await freshToken() })).status).toBe(200);
  });

  it('does not limit public routes', async () => {
    const answers = [];
    for (let i = 0; i < 10; i += 1) answers.push(await service.request('GET', '/health'));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(answers[0].headers['ratelimit-limit']).toBeUndefined();
  });
});
