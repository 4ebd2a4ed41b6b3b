import { ManualClock, startDnsTxtServer, type DnsTxtServer } from '@pss/testkit';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';

const SCOPES = ['stores:read', 'stores:write'];

/**
 * Domain ownership by DNS TXT (issue 29, item 9d): a tenant that creates a store for a domain first no longer keeps
 * its owner out, and loses its claim once the owner proves the domain. A real node:dns Resolver asks a loopback server.
 */
describe('domain verification by DNS TXT (HTTP, embedded)', () => {
  const env: NodeJS.ProcessEnv = {};
  let dns: DnsTxtServer;
  beforeAll(async () => {
    dns = await startDnsTxtServer();
    env.DNS_SERVERS = dns.address;
  });
  afterAll(() => dns.close());
  const suite = embeddedSuite({ clock: new ManualClock('2026-06-01T12:00:00.000Z'), env, scopes: SCOPES });

  const as = (token: string) => ({
    create: (domain: string) => suite.service.request('POST', '/api/v1/stores', { token, body: { domain } }),
    verify: (id: string) => suite.service.request('POST', `/api/v1/stores/${id}/verify-domain`, { token }),
    get: (id: string) => suite.service.request('GET', `/api/v1/stores/${id}`, { token }),
    suspend: (id: string) => suite.service.request('DELETE', `/api/v1/stores/${id}`, { token }),
  });
  let domains = 0;
  const newDomain = () => `owned${++domains}-${Date.now().toString(36)}.com.br`;
  const tenant = async () => as((await suite.service.tenant(SCOPES, { plan: 'enterprise' })).token);
  /** A store of a new organization on `domain`, its challenge published and verified. */
  const verifiedStore = async (domain: string) => {
    const owner = await tenant();
    const store = (await owner.create(domain)).body;
    dns.setTxt(store.domain_verification.record, [store.domain_verification.value]);
    expect((await owner.verify(store.id)).status).toBe(200);
    return { owner, store };
  };

  it('lets the owner create and verify a domain a squatter claimed first, and takes the squatter\'s claim over', async () => {
    const domain = newDomain();
    const squatter = await tenant();
    const owner = await tenant();
    const squatted = await squatter.create(domain);
    expect(squatted.status).toBe(201);
    expect(squatted.body).toMatchObject({ domain_claim: 'unverified', domain_verification: { record: `_pss-challenge.${domain}`, verified_at: null } });
    const created = await owner.create(domain);
    expect(created.status).toBe(201);
    const { record, value } = created.body.domain_verification;
    expect(value).toMatch(/^pss-verify=[0-9a-f]{32}$/);
    expect(value).not.toBe(squatted.body.domain_verification.value);
    expect((await suite.service.reportSdk(squatted.body.sdk_key, [])).status).toBe(202);

    dns.setTxt(record, ['v=spf1 -all', value]);
    const verified = await owner.verify(created.body.id);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ id: created.body.id, domain, domain_claim: 'verified', domain_verification: { record, value, verified_at: '2026-06-01T12:00:00.000Z' } });
    expect((await owner.get(created.body.id)).body).toMatchObject({ domain_claim: 'verified' });

    // The squatter's store stays its own to read, but its claim ended: its key reports nothing more, and it cannot verify.
    expect((await squatter.get(squatted.body.id)).body).toMatchObject({ status: 'active', domain_claim: 'lost' });
    const refused = await suite.service.reportSdk(squatted.body.sdk_key, []);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toEqual({ code: 'forbidden', message: 'The domain of this store was verified by another store' });
    dns.setTxt(record, [squatted.body.domain_verification.value]);
    expect((await squatter.verify(squatted.body.id)).body.error).toEqual({ code: 'conflict', message: `The domain ${domain} is already verified by another store` });
    expect((await suite.service.reportSdk(created.body.sdk_key, [])).status).toBe(202);
  });

  it('refuses a wrong value with 422, saying which record and value were expected and what was found', async () => {
    const owner = await tenant();
    const store = (await owner.create(newDomain())).body;
    const { record, value } = store.domain_verification;
    const none = await owner.verify(store.id);
    expect(none.status).toBe(422);
    expect(none.body.error).toMatchObject({ code: 'domain_not_verified', message: `Expected a TXT record ${record} with the value ${value}; found no TXT record` });
    dns.setTxt(record, ['pss-verify=0000\u0007\u001b']);
    const wrong = await owner.verify(store.id);
    expect(wrong.status).toBe(422);
    expect(wrong.body.error).toEqual({
      code: 'domain_not_verified',
      message: `Expected a TXT record ${record} with the value ${value}; found "pss-verify=0000"`,
      details: [{ field: 'domain', message: `${record} does not hold ${value}; found "pss-verify=0000"` }],
    });
    expect((await owner.get(store.id)).body).toMatchObject({ domain_claim: 'unverified', domain_verification: { verified_at: null } });
  });

  it('never lets two verified stores share a domain: a new store for it is 409, and so is a second verification', async () => {
    const domain = newDomain();
    const first = await tenant();
    const second = await tenant();
    const mine = (await first.create(domain)).body;
    const theirs = (await second.create(domain)).body;
    dns.setTxt(mine.domain_verification.record, [mine.domain_verification.value, theirs.domain_verification.value]);
    expect((await first.verify(mine.id)).status).toBe(200);
    expect((await first.verify(mine.id)).status).toBe(200);
    const again = await second.verify(theirs.id);
    expect(again.status).toBe(409);
    expect(again.body.error).toEqual({ code: 'conflict', message: `The domain ${domain} is already verified by another store` });
    const late = await (await tenant()).create(domain);
    expect(late.status).toBe(409);
    expect(late.body.error).toEqual({ code: 'conflict', message: `A store with the domain ${domain} already exists` });
  });

  it('keeps no plan slot for a create refused because another store verified the domain', async () => {
    const domain = newDomain();
    await verifiedStore(domain);
    const standard = as((await suite.service.tenant(SCOPES, { plan: 'essential', 'billing-mode': 'processor' })).token);
    expect((await standard.create(domain)).status).toBe(409);
    expect((await standard.create(newDomain())).status).toBe(201);
  });

  it('frees a verified domain when its store is suspended: another store may claim and verify it', async () => {
    const domain = newDomain();
    const { owner: first, store } = await verifiedStore(domain);
    expect((await first.suspend(store.id)).status).toBe(200);
    const next = await tenant();
    const successor = await next.create(domain);
    expect(successor.status).toBe(201);
    dns.setTxt(store.domain_verification.record, [successor.body.domain_verification.value]);
    expect((await next.verify(successor.body.id)).body).toMatchObject({ domain_claim: 'verified' });
  });

  it('answers 404 for another organization\'s store, and a staging store has nothing to verify', async () => {
    const owner = await tenant();
    const store = (await owner.create(newDomain())).body;
    dns.setTxt(store.domain_verification.record, [store.domain_verification.value]);
    const stranger = await tenant();
    const answer = await stranger.verify(store.id);
    expect(answer.status).toBe(404);
    expect(answer.body.error).toEqual({ code: 'not_found', message: 'Store not found' });
    expect((await owner.get(store.id)).body).toMatchObject({ domain_claim: 'unverified' });

    const staging = (await suite.service.request('POST', '/api/v1/stores', { token: suite.token, body: { domain: 'localhost:3999', environment: 'staging' } })).body;
    expect(staging).toMatchObject({ domain_claim: 'unverified', domain_verification: null });
    const refused = await suite.call('POST', `/stores/${staging.id}/verify-domain`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe('A staging store has no domain to verify: its domain is unique within its organization only');
  });
});
