import { createServer, type AddressInfo } from 'node:net';
import { eventually, ManualClock, sri } from '@pss/testkit';
import { HttpsReceiver } from '@pss/notifier/src/testing/https-receiver';
import { startWebhookHarness } from '@pss/notifier/src/testing/webhook-harness';
import type { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';

const SCOPES = ['webhooks:manage', 'stores:write', 'scripts:read'];
/** Long enough that a queue held by silent receivers shows (the notifier's 8 s, scaled down). */
const TIMEOUT_MS = 2_000;
/** What another tenant's script.detected takes with nothing in its way is about 0.1 s. */
const PROMPT_MS = 2_000;
const HOG_CHANNELS = 20;

/**
 * Issue 29: tenant A's receivers accept TLS and never answer, and A's store reports new scripts; tenant B, on a
 * healthy receiver and on the very host:port A's silent receivers use, must not notice.
 */
describe('webhook fairness between tenants (embedded)', () => {
  const clock = new ManualClock('2026-06-01T12:00:00.000Z');
  let healthy: HttpsReceiver;
  /** One host:port: A's paths hang, every other path answers. */
  let shared: HttpsReceiver;
  let service: EmbeddedHarness;
  let hog: { token: string; orgId: string };
  let other: { token: string; orgId: string };

  beforeAll(async () => {
    [healthy, shared] = await Promise.all([HttpsReceiver.start(), HttpsReceiver.start()]);
    shared.answerWith((request) => (request.path.startsWith('/a/') ? 'hang' : { status: 200 }));
    service = await startWebhookHarness({ clock, timeoutMs: TIMEOUT_MS });
    [hog, other] = await Promise.all([service.tenant(SCOPES, { plan: 'enterprise' }), service.tenant(SCOPES, { plan: 'enterprise' })]);
  });
  afterAll(async () => {
    await service.close();
    await Promise.all([healthy.close(), shared.close()]);
  });

  const channel = async (token: string, url: string) =>
    (await service.request('POST', '/api/v1/webhooks', { token, body: { url, events: ['script.detected'] } })).body;
  const newScript = (sdkKey: string, name: string) =>
    service.reportSdk(sdkKey, [{ kind: 'script', src: `https://cdn.widgets.example/${name}.js`, hash: sri(name) }], { session_id: `shopper-${name}` });
  const hanging = () => shared.received.filter((request) => request.path.startsWith('/a/'));
  const elapsedSince = (started: number) => Date.now() - started;
  /** The delivery history of all A's webhook channels. */
  const hogHistory = async () => {
    const channels = (await service.ops('channels.list', { org: hog.orgId })).data as Array<{ id: string; type: string }>;
    const histories = await Promise.all(channels.filter((found) => found.type === 'webhook').map((found) => service.ops('deliveries.list', { org: hog.orgId, channel: found.id })));
    return histories.flatMap((history) => history.data as Array<{ status: string; attempts: number; last_error: string | null }>);
  };

  it("delivers B's events and answers B's tests promptly while A's silent receivers time out, and A's are parked rather than queued", async () => {
    for (let i = 0; i < HOG_CHANNELS; i += 1) await channel(hog.token, shared.url(`/a/${i}`));
    const hogStore = await service.createStore(hog.token);
    const otherStore = await service.createStore(other.token);
    const nearby = await channel(other.token, healthy.url('/b'));
    const sameHost = await channel(other.token, shared.url('/b'));

    for (let batch = 0; batch < 4; batch += 1) await newScript(hogStore.sdk_key, `hog-${batch}`);
    // All 80 of A's deliveries requested and A's first attempts under way, well before the first of them times out.
    await eventually(hogHistory, (entries) => entries.length === 4 * HOG_CHANNELS, { intervalMs: 200 });
    await eventually(hanging, (requests) => requests.length >= 5);

    const reported = Date.now();
    await newScript(otherStore.sdk_key, 'other');
    const [onHealthy] = await healthy.waitFor(1, '/b');
    expect(elapsedSince(reported)).toBeLessThan(PROMPT_MS);
    const [onSharedHost] = await shared.waitFor(1, '/b');
    expect(elapsedSince(reported)).toBeLessThan(PROMPT_MS);
    expect([onHealthy.json.type, onSharedHost.json.type]).toEqual(['script.detected', 'script.detected']);

    for (const id of [nearby.id, sameHost.id]) {
      const asked = Date.now();
      const answer = await service.request('POST', `/api/v1/webhooks/${id}/test`, { token: other.token });
      expect([answer.status, answer.body]).toEqual([200, { id, delivered: true, error: null }]);
      expect(elapsedSince(asked)).toBeLessThan(PROMPT_MS);
    }

    // A's endpoint was parked after its first timeouts: of its 80 deliveries only the first few went out, and
    // the rest wait, pending, for the retry cycle. In the history, an attempt's error is a word of the vocabulary.
    await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS * 2));
    expect(hanging().length).toBeLessThan(HOG_CHANNELS);
    const entries = await hogHistory();
    expect(new Set(entries.map((entry) => `${entry.status} ${entry.last_error}`))).toEqual(new Set(['pending timeout', 'pending null']));
    expect(entries.reduce((sum, entry) => sum + entry.attempts, 0)).toBe(hanging().length);
  });

  it("answers a test's failure with a word of the vocabulary", async () => {
    const silent = await channel(other.token, shared.url('/a/test'));
    const closed = await channel(other.token, `https://127.0.0.1:${await closedPort()}/hook`);
    const blocked = await channel(other.token, 'https://[::1]/hook');
    const test = async (id: string) => (await service.request('POST', `/api/v1/webhooks/${id}/test`, { token: other.token })).body.error;
    expect([await test(silent.id), await test(closed.id), await test(blocked.id)]).toEqual(['timeout', 'connection_refused', 'blocked_address']);
  });
});

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
