import { BUS, type Bus, type BusFaults } from '@pss/bus';
import { COMMANDS, type IssuedToken } from '@pss/contracts';
import { listTokens } from '@pss/dashboard-reads';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { eventually } from '@pss/testkit';
import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';

/**
 * Issue 31: the dashboard's token-issue command delivered twice (a rebalance before the offset commit) issues one
 * token; the delivery that wrote it answers its secret, the other the same token without one.
 */
describe('a token-issue command delivered twice (embedded, every command twice)', () => {
  const replies: IssuedToken[] = [];
  const hear: BusFaults['onReply'] = (pattern, reply) => {
    if (pattern === COMMANDS.tokenIssue && !reply.err) replies.push(reply.response as IssuedToken);
  };
  const faults: BusFaults = { duplicateRate: 1, maxDelayMs: 50, handlerFailureRate: 0, seed: 31, onReply: hear };
  let service: EmbeddedHarness;

  beforeAll(async () => {
    service = await EmbeddedHarness.start({ busFaults: faults });
  });
  afterAll(() => service?.close());

  it('issues one token, its secret in one answer only, and the API takes that secret', async () => {
    const orgId = (await service.createOrganization()).id;
    const bus = service.app.get<Bus>(BUS);
    const readStore = service.app.get<ReadStore>(READ_STORE);

    const answer = await bus.request<IssuedToken>(COMMANDS.tokenIssue, { orgId, name: 'Twice', scopes: ['read-only'], validityDays: 30 }, { actor: 'user:owner@shop.example' });

    const both = await eventually(() => [...replies], (seen) => seen.length >= 2);
    expect(both.map((reply) => reply.id)).toEqual([answer.id, answer.id]);
    expect(both.map((reply) => reply.prefix)).toEqual([answer.prefix, answer.prefix]);
    const secrets = both.map((reply) => reply.token).filter((token): token is string => token !== null);
    expect(secrets).toHaveLength(1);
    expect(secrets[0].startsWith(answer.prefix)).toBe(true);
    expect((await listTokens(readStore, orgId, new Date())).filter((token) => token.name === 'Twice')).toHaveLength(1);
    expect((await service.request('GET', '/api/v1/stores', { token: secrets[0] })).status).toBe(200);
  });
});
