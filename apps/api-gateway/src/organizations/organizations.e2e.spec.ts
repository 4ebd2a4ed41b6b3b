import { POLICIES, type PolicyDocument } from '@pss/contracts';
import { EVENT_STORE, type EventStore } from '@pss/event-store';
import { ProjectionRunner } from '@pss/projections';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { ManualClock } from '@pss/testkit';
import { defaultPolicyId } from '@pss/inventory/src/policies/default-policies';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';

describe('organizations (HTTP, embedded)', () => {
  const clock = new ManualClock('2026-02-10T08:00:00.000Z');
  const suite = embeddedSuite({ clock });

  const partner = () => suite.service.tenant(['orgs:manage']);
  const create = (token: string, body: unknown) => suite.service.request('POST', '/api/v1/organizations', { token, body });
  const list = (token: string, query = '') => suite.service.request('GET', `/api/v1/organizations${query}`, { token });
  const child = { name: 'Acme Brasil', owner_email: 'owner@acme.example' };

  const policiesOf = (orgId: string) =>
    suite.service.app.get<ReadStore>(READ_STORE).collection<PolicyDocument>(POLICIES).find({ org_id: orgId }, { sort: { priority: 1 } });

  it('creates a child of the caller organization (201) and lists it at once', async () => {
    const { orgId, token } = await partner();
    const created = await create(token, { name: 'Acme Brasil', owner_email: 'Dono@Acme-BR.example', plan: 'pro', billing_mode: 'processor' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Acme Brasil',
      plan: 'pro',
      billing_mode: 'processor',
      parent_org_id: orgId,
      owner_email: 'dono@acme-br.example',
      partner_settings: {},
      created_at: '2026-02-10T08:00:00.000Z',
      owner_invite: 'sent',
    });
    const { owner_invite: _inviteOnlyOnCreate, ...organization } = created.body;
    expect((await list(token)).body).toEqual({ data: [organization], next_cursor: null });
  });

  it('defaults to the growth plan and partner billing', async () => {
    const { token } = await partner();
    const created = await create(token, child);
    expect(created.body).toMatchObject({ plan: 'growth', billing_mode: 'partner' });
  });

  it('replays the first answer to a retry with the same Idempotency-Key, creating one organization', async () => {
    const { token } = await partner();
    const headers = { 'idempotency-key': 'create-acme-brasil' };
    const first = await suite.service.request('POST', '/api/v1/organizations', { token, body: child, headers });
    const retry = await suite.service.request('POST', '/api/v1/organizations', { token, body: child, headers });
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect((await list(token)).body.data).toHaveLength(1);
  });

  it('seeds the four default policies of a new organization before answering', async () => {
    const { token } = await partner();
    const created = await create(token, child);
    const policies = await policiesOf(created.body.id);
    const rule = ({ priority, mode, action, match, conditions, justification_template }: PolicyDocument) =>
      [priority, mode, action, match, conditions, justification_template];
    expect(policies.map(rule)).toEqual([
      [10, 'auto', 'block', {}, { in_threat_list: true }, 'Host {domain} is in the threat list'],
      [100, 'recommend', 'authorize', { origin: 'first_party' }, { no_sensitive_field_access: true }, 'First-party script from {domain}'],
      [200, 'recommend', 'authorize', { category: ['payment'] }, {}, 'Payment provider {vendor} on {domain}'],
      [1000, 'recommend', 'needs_review', {}, {}, null],
    ]);
    expect(policies.map((policy) => policy.name)).toEqual([
      'Block hosts in the threat list',
      'Recommend first-party scripts that touch no sensitive field',
      'Recommend known payment providers',
      'Review everything else',
    ]);
    expect(policies[0]).toEqual({
      _id: defaultPolicyId(created.body.id, 'block-threat-list'),
      _position: expect.any(Number),
      org_id: created.body.id,
      store_id: null,
      name: 'Block hosts in the threat list',
      description: expect.any(String),
      version: 1,
      active: true,
      mode: 'auto',
      priority: 10,
      match: {},
      conditions: { in_threat_list: true },
      action: 'block',
      justification_template: 'Host {domain} is in the threat list',
      expires_days: null,
      is_default: true,
      created_at: '2026-02-10T08:00:00.000Z',
      updated_at: '2026-02-10T08:00:00.000Z',
    });
  });

  it('seeds nothing twice: replaying every organization through the seeder adds no event and no policy', async () => {
    const { token } = await partner();
    const created = await create(token, child);
    const eventStore = suite.service.app.get<EventStore>(EVENT_STORE);
    const policyEvents = async () => (await eventStore.readAll({ filter: { streamPrefixes: ['policy-'] } })).length;
    const before = await policyEvents();
    await suite.service.app.get(ProjectionRunner).rebuild('default_policies', () => undefined);
    expect(await policyEvents()).toBe(before);
    expect(await policiesOf(created.body.id)).toHaveLength(4);
  });

  it('seeds the defaults of organizations made with the admin CLI too, top-level or child', async () => {
    const top = await suite.service.ops('org.create', { name: 'Operator Made' });
    const nested = await suite.service.ops('org.create', { name: 'Operator Child', parent: top.id });
    expect(await policiesOf(top.id)).toHaveLength(4);
    expect(await policiesOf(nested.id)).toHaveLength(4);
    expect((await policiesOf(top.id)).every((policy) => policy.is_default)).toBe(true);
  });

  it('answers 403 nesting_limit when a child organization tries to create one', async () => {
    const { token } = await partner();
    const created = await create(token, child);
    const issued = await suite.service.ops('token.create', { org: created.body.id, name: 'child', scopes: 'orgs:manage' });
    const nested = await create(issued.token, { ...child, name: 'Grandchild' });
    expect(nested.status).toBe(403);
    expect(nested.body).toEqual({
      error: { code: 'nesting_limit', message: 'Child organizations cannot create organizations: only one level of nesting is allowed' },
    });
    expect((await list(issued.token)).body.data).toEqual([]);
  });

  it('answers 403 insufficient_scope without orgs:manage', async () => {
    const { token } = await suite.service.tenant(['usage:read', 'stores:write']);
    for (const answer of [await list(token), await create(token, child)]) {
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('insufficient_scope');
    }
  });

  it('never lists the children of another organization', async () => {
    const first = await partner();
    const second = await partner();
    await create(first.token, { ...child, name: 'First Child' });
    const listed = await list(second.token);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([]);
  });

  it('refuses org_id on both routes: they always concern the token organization', async () => {
    const { token } = await partner();
    const created = await create(token, child);
    const listed = await list(token, `?org_id=${created.body.id}`);
    const nested = await create(token, { ...child, org_id: created.body.id });
    for (const answer of [listed, nested]) {
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'validation_error', details: [{ field: 'org_id', message: 'org_id is not accepted by this operation' }] });
    }
    expect((await create(token, { ...child, org_id: null })).status).toBe(201);
  });

  describe('validation of POST /organizations (one detail per field)', () => {
    let token: string;
    beforeAll(async () => {
      ({ token } = await partner());
    });

    const expectInvalid = async (body: unknown, field: string, message: RegExp) => {
      const answer = await create(token, body);
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('validation_error');
      expect(answer.body.error.details).toEqual([{ field, message: expect.stringMatching(message) }]);
    };

    it.each([2, 120])('accepts a %i-character name', async (length) => {
      const answer = await create(token, { ...child, name: 'n'.repeat(length) });
      expect(answer.status).toBe(201);
      expect(answer.body.name).toHaveLength(length);
    });

    it.each([1, 121])('refuses a %i-character name', (length) =>
      expectInvalid({ ...child, name: 'n'.repeat(length) }, 'name', /name must be a string of 2 to 120 characters/));

    it('refuses a missing name and a name that is not a string', async () => {
      await expectInvalid({ owner_email: child.owner_email }, 'name', /2 to 120/);
      await expectInvalid({ ...child, name: 42 }, 'name', /2 to 120/);
    });

    it.each([['a malformed', 'not-an-email'], ['a missing', undefined], ['a non-string', ['a@b.example']]])(
      'refuses %s owner_email',
      (_case, owner_email) => expectInvalid({ name: child.name, owner_email }, 'owner_email', /owner_email must be an e-mail address/),
    );

    it('refuses an unknown plan and an unknown billing_mode', async () => {
      await expectInvalid({ ...child, plan: 'platinum' }, 'plan', /plan must be one of essential, standard, growth, pro, enterprise/);
      await expectInvalid({ ...child, billing_mode: 'card' }, 'billing_mode', /billing_mode must be one of partner, processor/);
    });

    it('refuses an unknown field', () => expectInvalid({ ...child, parent_org_id: null }, 'parent_org_id', /parent_org_id is not a known field/));

    it('reports every bad field at once', async () => {
      const answer = await create(token, { name: 'x', owner_email: 'nope', plan: 'gold' });
      expect(answer.body.error.details.map((detail: { field: string }) => detail.field).sort()).toEqual(['name', 'owner_email', 'plan']);
    });

    it('refuses malformed JSON', async () => {
      const answer = await create(token, '{"name": "Acme",');
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('validation_error');
    });
  });

  describe('pagination of GET /organizations', () => {
    let token: string;
    const created: string[] = [];
    beforeAll(async () => {
      ({ token } = await partner());
      for (let i = 0; i < 5; i += 1) {
        created.push((await create(token, { ...child, name: `Child ${i}` })).body.id);
        clock.advance(1000);
      }
    });

    it('pages newest first with limit=2, without duplicates or gaps', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = cursor ? `?limit=2&cursor=${cursor}` : '?limit=2';
        const page = await list(token, query);
        expect(page.status).toBe(200);
        expect(page.body.data.length).toBeLessThanOrEqual(2);
        seen.push(...page.body.data.map((organization: { id: string }) => organization.id));
        cursor = page.body.next_cursor;
        pages += 1;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toEqual([...created].reverse());
    });

    it('keeps pages stable when a child is added while paging', async () => {
      const first = await list(token, '?limit=2');
      await create(token, { ...child, name: 'Late Child' });
      const second = await list(token, `?limit=2&cursor=${first.body.next_cursor}`);
      expect(second.body.data.map((organization: { id: string }) => organization.id)).toEqual([created[2], created[1]]);
    });

    it('answers 400 on the cursor field to a tampered cursor', async () => {
      const answer = await list(token, `?cursor=${Buffer.from('["x"]').toString('base64url')}`);
      expect(answer.status).toBe(400);
      expect(answer.body.error.details[0].field).toBe('cursor');
    });
  });
});
