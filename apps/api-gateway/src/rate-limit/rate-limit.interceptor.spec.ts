import { Controller, Get } from '@nestjs/common';
import { DomainError } from '@pss/kernel';
import { Public } from '@pss/platform';
import { ManualClock } from '@pss/testkit';
import { startGatewayTestApp, TEST_TOKEN_HEADER, type GatewayTestApp } from '../idempotency/testing/gateway-test-app';
import { RateLimitModule } from './rate-limit.module';

@Controller()
class ProbeController {
  @Get('limited')
  limited() {
    return { ok: true };
  }

  @Get('refused')
  refused() {
    throw new DomainError('not_found', 'Store not found');
  }

  @Get('public')
  @Public()
  open() {
    return { ok: true };
  }
}

describe('rate limiting per token (interceptor)', () => {
  const clock = new ManualClock();
  let testApp: GatewayTestApp;
  let tokens = 0;
  /** A token no other test used: every test starts from a full bucket. */
  const freshToken = () => `token-${++tokens}`;

  beforeAll(async () => {
    // One a second, a burst of 6.
    testApp = await startGatewayTestApp({ imports: [RateLimitModule], controllers: [ProbeController], clock, env: { RATE_LIMIT_PER_MINUTE: '60' } });
  });
  afterAll(() => testApp.close());

  async function get(url: string, token?: string) {
    const headers = token ? { [TEST_TOKEN_HEADER]: token } : {};
    const response = await testApp.app.getHttpAdapter().getInstance().inject({ method: 'GET', url, headers });
    return { status: response.statusCode, headers: response.headers, body: response.json() };
  }

  const getMany = async (url: string, token: string, count: number) => {
    const answers = [];
    for (let i = 0; i < count; i += 1) answers.push(await get(url, token));
    return answers;
  };

  it('allows the burst, saying how much is left', async () => {
    const answers = await getMany('/limited', freshToken(), 6);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers[0].headers['ratelimit-limit']).toBe('6');
    expect(answers.map((answer) => answer.headers['ratelimit-remaining'])).toEqual(['5', '4', '3', '2', '1', '0']);
  });

  it('refuses the next request with 429 rate_limited and Retry-After', async () => {
    const token = freshToken();
    await getMany('/limited', token, 6);
    const refused = await get('/limited', token);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: { code: 'rate_limited', message: 'Rate limit exceeded; retry after 1 seconds' } });
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
  });

  it('counts refused requests too, and allows again once refilled', async () => {
    const token = freshToken();
    await getMany('/refused', token, 6);
    expect((await get('/refused', token)).status).toBe(429);
    clock.advance(1000);
    expect((await get('/limited', token)).status).toBe(200);
    expect((await get('/limited', token)).status).toBe(429);
  });

  it('limits each token on its own', async () => {
    const token = freshToken();
    await getMany('/limited', token, 7);
    expect((await get('/limited', freshToken())).status).toBe(200);
  });

  it('does not limit public routes', async () => {
    const answers = await getMany('/public', freshToken(), 10);
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(answers[0].headers['ratelimit-limit']).toBeUndefined();
  });
});
