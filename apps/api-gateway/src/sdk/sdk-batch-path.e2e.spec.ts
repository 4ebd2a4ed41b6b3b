import { REPLICA_EVENTS, type ReplicaEvents } from '@pss/bus';
import { INVENTORY_TOPICS } from '@pss/contracts';
import { eventually, ManualClock, sri } from '@pss/testkit';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';

/** 60 a minute: a client address may take a tenth of a store's burst of 6, that is one batch. */
const PER_MINUTE = '60';
const NOT_JSON = { 'content-type': 'application/xml' };

/**
 * The steps of sdk-batch-path.ts, walked with one request each that would fail its step and every later one: the
 * answer is its step's, so the steps run in the table's order. Then a batch that passes them all, to the fact.
 */
describe('the SDK batch path, step by step (HTTP, embedded)', () => {
  const clock = new ManualClock('2026-05-04T15:00:00.000Z');
  const suite = embeddedSuite({ clock, env: { SDK_RATE_LIMIT_PER_MINUTE: PER_MINUTE }, scopes: ['stores:write', 'scripts:read'] });
  let address = 0;
  const shopper = () => `198.51.100.${++address}`;
  const post = (key: string, body: string, headers: Record<string, string>, from = shopper()) =>
    suite.service.request('POST', `/sdk/v1/events?key=${key}`, { body, headers, from });

  it('key: an unknown key is 401 before its media type or body is looked at', async () => {
    const answer = await post('pk_live_unknown', '<batch/>', NOT_JSON);
    expect([answer.status, answer.body.error.code]).toEqual([401, 'unauthorized']);
  });

  it("budget: past the address's share of the store's rate, 429 before the media type is looked at", async () => {
    const store = await suite.newStore();
    const from = shopper();
    expect((await suite.service.reportSdk(store.sdk_key, [], {}, from)).status).toBe(202);
    const answer = await post(store.sdk_key, '<batch/>', NOT_JSON, from);
    expect([answer.status, answer.body.error.code]).toEqual([429, 'rate_limited']);
  });

  it('body: an admitted key with a media type pages do not post is 415 before the body is parsed', async () => {
    const store = await suite.newStore();
    const answer = await post(store.sdk_key, '<batch/>', NOT_JSON);
    expect([answer.status, answer.body.error.code]).toEqual([415, 'unsupported_media_type']);
  });

  it('validation: a body that is no batch is 400', async () => {
    const store = await suite.newStore();
    const answer = await post(store.sdk_key, 'not a batch', { 'content-type': 'text/plain' });
    expect([answer.status, answer.body.error.code]).toEqual([400, 'validation_error']);
  });

  it("page domain: a valid batch from a page off the store's domain is taken in and every observation rejected", async () => {
    const store = await suite.newStore();
    const script = { kind: 'script', src: 'https://cdn.elsewhere.example/a.js', hash: sri('a') };
    const answer = await suite.service.reportSdk(store.sdk_key, [script], { page_url: 'https://elsewhere.example/checkout' }, shopper());
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ accepted: 0, rejected: 1, rejections: [{ index: 0, reason: expect.stringContaining("is not on this store's domain") }] });
  });

  it('edge, ingestion and facts: a new script from the page is in the inventory and published as inventory.script.detected', async () => {
    const store = await suite.newStore();
    const facts: unknown[] = [];
    const stop = await suite.service.app.get<ReplicaEvents>(REPLICA_EVENTS).subscribe([INVENTORY_TOPICS.scriptDetected], (_, fact) => facts.push(fact));
    try {
      const script = { kind: 'script', src: `https://www.${store.domain}/app.js`, hash: sri('app v1') };
      expect((await suite.service.reportSdk(store.sdk_key, [script], {}, shopper())).body).toEqual({ accepted: 1, rejected: 0, rejections: [] });
      const [listed] = (await eventually(() => suite.get(`/scripts?store_id=${store.id}`), (answer) => answer.body.data.length === 1)).body.data;
      const published = await eventually(() => facts, (seen) => seen.length > 0);
      expect(published).toEqual([expect.objectContaining({ type: INVENTORY_TOPICS.scriptDetected, store_id: store.id, data: expect.objectContaining({ script_id: listed.id, src: script.src }) })]);
    } finally {
      await stop();
    }
  });
});
