import { randomBytes } from 'node:crypto';
import { BUS, type Bus } from '@pss/bus';
import { COMMANDS, hashToken, LEGACY_TOKEN_LITERAL, tokenPrefix, type IssuedToken, type TokenListItem } from '@pss/contracts';
import { listTokens } from '@pss/dashboard-reads';
import { uuidv7 } from '@pss/kernel';
import { AggregateRepository } from '@pss/platform';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';
import { tokenDecider, tokenStream } from './token.decider';

/** A command delivered once: its answer has the token. */
type FirstIssued = IssuedToken & { token: string };

/** The token operations the dashboard sends over the bus, checked against the API a token then calls. */
describe('dashboard tokens (bus commands, embedded)', () => {
  const owner = 'user:owner@shop.example';
  const suite = embeddedSuite();
  let bus: Bus;
  let readStore: ReadStore;
  let orgId: string;

  beforeAll(async () => {
    bus = suite.service.app.get(BUS);
    readStore = suite.service.app.get(READ_STORE);
    orgId = (await suite.service.createOrganization()).id;
  });

  const issue = (request: Record<string, unknown>, options: { actor?: string } = { actor: owner }) =>
    bus.request<FirstIssued>(COMMANDS.tokenIssue, { orgId, name: 'CI', scopes: ['read-only'], validityDays: null, ...request }, options);
  const listStores = (token: string) => suite.service.request('GET', '/api/v1/stores', { token });

  it('issues a read-only token shown once, lists it without its secret, and the API answers it', async () => {
    const issued = await issue({ name: 'Read-only for the auditor', validityDays: 90 });

    expect(issued.token).toMatch(/^pss_tok_[0-9a-f]{24}_[0-9a-f]{32}$/);
    expect(issued).toEqual(expect.objectContaining({ name: 'Read-only for the auditor', prefix: tokenPrefix(issued.token), status: 'Active', last_used_at: null }));
    expect(issued.scopes).toEqual(['stores:read', 'scripts:read', 'policies:read', 'alerts:read', 'reports:read', 'usage:read']);
    expect(Date.parse(issued.expires_at!) - Date.parse(issued.created_at)).toBe(90 * 86_400_000);
    expect((await listStores(issued.token)).status).toBe(200);

    const listed = (await listTokens(readStore, orgId, new Date())).find((token) => token.id === issued.id);
    expect(listed).toEqual(expect.objectContaining({ prefix: issued.prefix, status: 'Active' }));
    expect(JSON.stringify(await listTokens(readStore, orgId, new Date()))).not.toContain(issued.token);
    expect(listed).not.toHaveProperty('hash');
  });

  it('refuses a token without a name, with an over-long name, without scopes or with a validity not offered', async () => {
    await expect(issue({ name: 'x'.repeat(81) })).rejects.toMatchObject({ code: 'validation_error' });
    await expect(issue({ scopes: [] })).rejects.toMatchObject({ code: 'validation_error' });
    await expect(issue({ validityDays: 60 })).rejects.toMatchObject({ code: 'validation_error' });
  });

  it('refuses a command that does not name its actor, so the audit log never shows a change by nobody', async () => {
    await expect(issue({}, {})).rejects.toMatchObject({ code: 'validation_error', details: [expect.objectContaining({ field: 'actor' })] });
  });

  it("lists only the acting organization's tokens, and revokes only its own", async () => {
    const other = (await suite.service.createOrganization({ name: 'Other Shop' })).id;
    const foreign = await bus.request<FirstIssued>(COMMANDS.tokenIssue, { orgId: other, name: 'theirs', scopes: ['stores:read'], validityDays: null }, { actor: owner });

    expect((await listTokens(readStore, orgId, new Date())).map((token) => token.prefix)).not.toContain(foreign.prefix);
    await expect(bus.request(COMMANDS.tokenRevoke, { orgId, prefix: foreign.prefix }, { actor: owner })).rejects.toMatchObject({ code: 'not_found' });
    expect((await listStores(foreign.token)).status).toBe(200);
  });

  it('revokes at once: the API answers 401 Invalid token within a second, and the token stays listed as Revoked', async () => {
    const issued = await issue({});
    expect((await listStores(issued.token)).status).toBe(200);

    const started = Date.now();
    const revoked = await bus.request<TokenListItem>(COMMANDS.tokenRevoke, { orgId, prefix: issued.prefix }, { actor: owner });
    const refused = await listStores(issued.token);
    expect(Date.now() - started).toBeLessThan(1_000);

    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: { code: 'unauthorized', message: 'Invalid token' } });
    expect(revoked).toEqual(expect.objectContaining({ id: issued.id, status: 'Revoked', revoked_at: expect.any(String) }));
    expect((await listTokens(readStore, orgId, new Date())).find((token) => token.id === issued.id)?.status).toBe('Revoked');
  });

  it('keeps a token issued with the legacy sk_live_ literal working', async () => {
    const legacy = `${LEGACY_TOKEN_LITERAL}${randomBytes(12).toString('hex')}_${randomBytes(16).toString('hex')}`;
    const tokenId = uuidv7();
    const command = { type: 'IssueToken' as const, tokenId, orgId, name: 'issued in 2025', prefix: tokenPrefix(legacy), hash: hashToken(legacy), scopes: ['stores:read'], validityDays: null, at: new Date() };
    await suite.service.app.get(AggregateRepository).decide(tokenStream(tokenId), tokenDecider, command, { actor: 'admin-cli', orgId });

    expect((await listStores(legacy)).status).toBe(200);
  });
});
