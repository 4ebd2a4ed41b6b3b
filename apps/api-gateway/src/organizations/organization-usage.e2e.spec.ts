import { randomUUID } from 'node:crypto';
import { SCRIPTS, STORES, USAGE_COUNTERS } from '@pss/contracts';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { ManualClock } from '@pss/testkit';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';

describe('organization usage (HTTP, embedded)', () => {
  const clock = new ManualClock('2026-02-14T15:30:00.000Z');
  const suite = embeddedSuite({ clock });

  const usage = (token: string, orgId: string, query = '') =>
    suite.service.request('GET', `/api/v1/organizations/${orgId}/usage${query}`, { token });

  /**
   * Stores, scripts and SDK event counters are other features' read models, tested with those features; here
   * their documents are put straight into the read models, to check what is counted and what is not.
   */
  async function fill(orgId: string): Promise<void> {
    const readStore = suite.service.app.get<ReadStore>(READ_STORE);
    const stores = readStore.collection(STORES);
    for (const status of ['active', 'active', 'suspended']) {
      await stores.insertOne({ _id: randomUUID(), org_id: orgId, status, domain: `${randomUUID()}.example` });
    }
    for (let i = 0; i < 3; i += 1) await readStore.collection(SCRIPTS).insertOne({ _id: randomUUID(), org_id: orgId, src: `https://cdn${i}.example/a.js` });
    await readStore.collection(USAGE_COUNTERS).insertOne({ _id: `${orgId}:2026-02`, org_id: orgId, month: '2026-02', events: 1234 });
    await readStore.collection(USAGE_COUNTERS).insertOne({ _id: `${orgId}:2026-01`, org_id: orgId, month: '2026-01', events: 99 });
  }

  it('reports the plan, the current calendar month and what the organization uses', async () => {
    const { orgId, token } = await suite.service.tenant(['usage:read'], { plan: 'growth', 'billing-mode': 'processor' });
    await fill(orgId);
    const other = await suite.service.tenant(['usage:read']);
    await fill(other.orgId);
    const answer = await usage(token, orgId);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      org_id: orgId,
      plan: 'growth',
      billing_mode: 'processor',
      period: { start: '2026-02-01T00:00:00.000Z', end: '2026-03-01T00:00:00.000Z' },
      stores: { used: 2, allowed: 10 },
      scripts: { total: 3 },
      events: { this_month: 1234 },
    });
  });

  it('counts zero for a fresh organization, and allows unlimited stores to partner-billed and enterprise ones', async () => {
    const partnerBilled = await suite.service.tenant(['usage:read'], { plan: 'essential', 'billing-mode': 'partner' });
    expect((await usage(partnerBilled.token, partnerBilled.orgId)).body).toMatchObject({
      stores: { used: 0, allowed: null },
      scripts: { total: 0 },
      events: { this_month: 0 },
    });
    const enterprise = await suite.service.tenant(['usage:read'], { plan: 'enterprise', 'billing-mode': 'processor' });
    expect((await usage(enterprise.token, enterprise.orgId)).body.stores).toEqual({ used: 0, allowed: null });
  });

  it("shows a partner its children's usage, directly or acting on the child with org_id", async () => {
    const partner = await suite.service.tenant(['usage:read', 'orgs:manage']);
    const child = await suite.service.request('POST', '/api/v1/organizations', {
      token: partner.token,
      body: { name: 'Acme Brasil', owner_email: 'owner@acme.example', plan: 'standard', billing_mode: 'processor' },
    });
    const direct = await usage(partner.token, child.body.id);
    expect(direct.status).toBe(200);
    expect(direct.body).toMatchObject({ org_id: child.body.id, plan: 'standard', stores: { used: 0, allowed: 3 } });
    expect((await usage(partner.token, child.body.id, `?org_id=${child.body.id}`)).body).toEqual(direct.body);
    // Acting on the child, the partner's own usage is out of reach: a child never sees its parent.
    expect((await usage(partner.token, partner.orgId, `?org_id=${child.body.id}`)).status).toBe(404);
  });

  it("answers 404 for another organization's usage, its children's, and an unknown id alike", async () => {
    const first = await suite.service.tenant(['usage:read', 'orgs:manage']);
    const second = await suite.service.tenant(['usage:read']);
    const child = await suite.service.request('POST', '/api/v1/organizations', {
      token: first.token,
      body: { name: 'First Child', owner_email: 'owner@acme.example' },
    });
    for (const orgId of [first.orgId, child.body.id, randomUUID()]) {
      const answer = await usage(second.token, orgId);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: { code: 'not_found', message: 'Organization not found' } });
    }
    // A child never sees its parent.
    const childToken = await suite.service.ops('token.create', { org: child.body.id, name: 'child', scopes: 'usage:read' });
    expect((await usage(childToken.token, first.orgId)).status).toBe(404);
  });

  it('answers 400 validation_error on id to a malformed id, and 403 without usage:read', async () => {
    const { token } = await suite.service.tenant(['usage:read']);
    const malformed = await usage(token, 'not-a-uuid');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatchObject({ code: 'validation_error', details: [{ field: 'id' }] });
    const withoutScope = await suite.service.tenant(['orgs:manage']);
    const forbidden = await usage(withoutScope.token, withoutScope.orgId);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe('insufficient_scope');
  });
});
