import type { BusFaults } from '@pss/bus';
import { COMMANDS } from '@pss/contracts';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';
import { eventually } from '@pss/testkit';
import { startWebhookHarness } from '@pss/notifier/src/testing/webhook-harness';
import { HttpsReceiver } from '@pss/notifier/src/testing/https-receiver';

interface Reply {
  pattern: string;
  err?: unknown;
  response?: any;
}

/**
 * Issue 33, D9: commands that are not creates, delivered twice (a rebalance before the offset commit). A key
 * rotation must leave the store on the key its caller was shown (else the SDK gets 401 once the first key expires),
 * pages added twice must not answer 409 to either delivery, and a channel test must send one test webhook.
 */
describe('Changes delivered twice to a waiting caller (embedded, every command twice)', () => {
  const replies: Reply[] = [];
  const faults: BusFaults = {
    duplicateRate: 1,
    maxDelayMs: 50,
    handlerFailureRate: 0,
    seed: 33,
    onReply: (pattern, reply) => replies.push({ pattern, err: reply.err, response: reply.response }),
  };
  const suite = embeddedSuite({ scopes: ['stores:read', 'stores:write', 'pages:write', 'webhooks:manage'], start: () => startWebhookHarness({ busFaults: faults }) });
  let receiver: HttpsReceiver;

  beforeAll(async () => {
    receiver = await HttpsReceiver.start();
  });
  afterAll(() => receiver?.close());
  beforeEach(() => replies.splice(0));

  /** Both deliveries' replies of `pattern` (the second may come after the caller was answered). */
  const bothReplies = async (pattern: string): Promise<Reply[]> => {
    await eventually(() => replies.filter((reply) => reply.pattern === pattern), (seen) => seen.length >= 2);
    return replies.filter((reply) => reply.pattern === pattern);
  };

  it('rotates the key once: both deliveries answer the key the store keeps', async () => {
    const store = await suite.newStore();

    const answer = await suite.call('POST', `/stores/${store.id}/rotate-key`);

    expect(answer.status).toBe(200);
    const both = await bothReplies(COMMANDS.storeRotateKey);
    expect(both.map((reply) => reply.err)).toEqual([undefined, undefined]);
    expect(both.map((reply) => reply.response.sdk_key)).toEqual([answer.body.sdk_key, answer.body.sdk_key]);
    expect((await suite.get(`/stores/${store.id}`)).body.sdk_key).toBe(answer.body.sdk_key);
  });

  it('adds the pages once: neither delivery answers 409', async () => {
    const store = await suite.newStore();

    const answer = await suite.call('POST', `/stores/${store.id}/pages`, { url_pattern: '/pay/*', payment_methods: ['card'] });

    expect(answer.status).toBe(200);
    const both = await bothReplies(COMMANDS.storeAddPages);
    expect(both.map((reply) => reply.err)).toEqual([undefined, undefined]);
    expect(both.map((reply) => reply.response.data.map((page: { id: string }) => page.id))).toEqual([[answer.body.id], [answer.body.id]]);
    expect((await suite.get(`/stores/${store.id}/pages`)).body.data.filter((page: { url_pattern: string }) => page.url_pattern === '/pay/*')).toHaveLength(1);
  });

  it('sends one test webhook per test request', async () => {
    const hook = await suite.call('POST', '/webhooks', { url: receiver.url('/twice') });
    expect(hook.status).toBe(201);

    const answer = await suite.call('POST', `/webhooks/${hook.body.id}/test`);

    expect(answer.status).toBe(200);
    expect(answer.body.delivered).toBe(true);
    await bothReplies(COMMANDS.channelTest);
    expect(receiver.received.filter((request) => request.path === '/twice')).toHaveLength(1);
  });
});
