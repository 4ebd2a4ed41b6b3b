import { ManualClock } from '@pss/testkit';
import { EmbeddedHarness } from '../../../embedded/src/testing/embedded-harness';

/** 60 a minute: a bucket of 6 requests per store, one more every second. */
const PER_MINUTE = 60;
const BURST = 6;

describe('SDK rate limit per store (HTTP, embedded)', () => {
  const clock = new ManualClock('2026-05-04T15:00:00.000Z');
  let service: EmbeddedHarness;
  let token: string;

  beforeAll(async () => {
    service = await EmbeddedHarness.start({ clock, env: { SDK_RATE_LIMIT_PER_MINUTE: String(PER_MINUTE) } });
    ({ token } = await service.tenant(['stores:write'], { plan: 'enterprise' }));
  });
  afterAll(() => service.close());

  const config = (key: string) => service.request('GET', `/sdk/v1/config?key=${key}`);
  const batch = (key: string) => service.reportSdk(key, []);

  it('counts batches and config reads of one key together, answers 429 with CORS past the rate, and spares other stores', async () => {
    const flooded = await service.createStore(token);
    const other = await service.createStore(token);
    for (let i = 0; i < BURST; i += 1) expect((await (i % 2 ? config(flooded.sdk_key) : batch(flooded.sdk_key))).status).toBe(i % 2 ? 200 : 202);

    for (const refused of [await config(flooded.sdk_key), await batch(flooded.sdk_key)]) {
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.headers['access-control-allow-origin']).toBe('*');
      expect(refused.body).toEqual({ error: { code: 'rate_limited', message: expect.stringContaining('retry after 1 second') } });
    }
    expect((await config(other.sdk_key)).status).toBe(200);
    expect((await batch(other.sdk_key)).status).toBe(202);

    clock.advance(1000);
    expect((await config(flooded.sdk_key)).status).toBe(200);
  });

  it('checks the key before the rate: an unknown key is 401, however often', async () => {
    for (let i = 0; i < BURST + 2; i += 1) expect((await config('pk_live_unknown')).status).toBe(401);
  });
});
