import { ManualClock } from '@pss/testkit';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';

/** 60 a minute: a bucket of 6 requests per store, one more every second; a client address may take a tenth. */
const PER_MINUTE = 60;
const BURST = 6;
const PER_CLIENT_BURST = 1;

describe('SDK rate limit per store and per client (HTTP, embedded)', () => {
  const clock = new ManualClock('2026-05-04T15:00:00.000Z');
  const suite = embeddedSuite({ clock, env: { SDK_RATE_LIMIT_PER_MINUTE: String(PER_MINUTE) }, scopes: ['stores:write'] });

  const config = (key: string, from: string) => suite.service.request('GET', `/sdk/v1/config?key=${key}`, { from });
  const batch = (key: string, from: string) => suite.service.reportSdk(key, [], {}, from);
  const shopper = (n: number) => `198.51.100.${n}`;

  it('counts batches and config reads of one key together, answers 429 with CORS past the rate, and spares other stores', async () => {
    const flooded = await suite.newStore();
    const other = await suite.newStore();
    for (let i = 0; i < BURST; i += 1) expect((await (i % 2 ? config(flooded.sdk_key, shopper(i)) : batch(flooded.sdk_key, shopper(i)))).status).toBe(i % 2 ? 200 : 202);

    for (const refused of [await config(flooded.sdk_key, shopper(10)), await batch(flooded.sdk_key, shopper(11))]) {
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.headers['access-control-allow-origin']).toBe('*');
      expect(refused.body).toEqual({ error: { code: 'rate_limited', message: expect.stringContaining('retry after 1 second') } });
    }
    expect((await config(other.sdk_key, shopper(10))).status).toBe(200);
    expect((await batch(other.sdk_key, shopper(11))).status).toBe(202);

    clock.advance(1000);
    expect((await config(flooded.sdk_key, shopper(12))).status).toBe(200);
  });

  it('lets one address take a tenth of the store rate: a flood from it leaves the store to its real pages', async () => {
    const store = await suite.newStore();
    const attacker = '203.0.113.66';
    for (let i = 0; i < PER_CLIENT_BURST; i += 1) expect((await batch(store.sdk_key, attacker)).status).toBe(202);
    for (let i = 0; i < 50; i += 1) {
      const refused = await batch(store.sdk_key, attacker);
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('10');
    }
    // The attacker's refusals spent nothing of the store's rate.
    for (let i = 1; i < BURST; i += 1) expect((await batch(store.sdk_key, shopper(i))).status).toBe(202);
    expect((await config(store.sdk_key, attacker)).status).toBe(429);
    // Another store's pages from the same address have their own share.
    expect((await batch((await suite.newStore()).sdk_key, attacker)).status).toBe(202);
  });

  it('checks the key before the rate: an unknown key is 401, however often, and its body is never read', async () => {
    for (let i = 0; i < BURST + 2; i += 1) expect((await config('pk_live_unknown', shopper(1))).status).toBe(401);
    const oversized = await suite.service.request('POST', '/sdk/v1/events?key=pk_live_unknown', { body: 'x'.repeat(300 * 1024), headers: { 'content-type': 'text/plain' } });
    expect(oversized.status).toBe(401);
    expect(oversized.headers['access-control-allow-origin']).toBe('*');
  });
});
