import { createHash } from 'node:crypto';
import { ManualClock } from '@pss/testkit';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';
import { ScriptRules } from '@pss/inventory/src/rules/script-rules';

const SCOPES = ['stores:write', 'scripts:read', 'rules:write'];
let domainCounter = 0;
const uniqueDomain = () => `rules${++domainCounter}-${Date.now().toString(36)}.example.com.br`;
const sha384 = `sha384-${createHash('sha384').update('alert(1)').digest('base64')}`;

describe('rules (HTTP, embedded)', () => {
  const clock = new ManualClock('2026-05-04T12:00:00.000Z');
  const suite = embeddedSuite({ clock, scopes: SCOPES });
  let storeId: string;

  beforeAll(async () => {
    storeId = await createStore(suite.token);
  });

  async function createStore(as: string, query = ''): Promise<string> {
    const answer = await suite.service.request('POST', `/api/v1/stores${query}`, { token: as, body: { domain: uniqueDomain() } });
    expect(answer.status).toBe(201);
    return answer.body.id;
  }

  const createRule = (body: Record<string, unknown>, as = suite.token) =>
    suite.service.request('POST', '/api/v1/rules', { token: as, body: { store_id: storeId, type: 'block', target: 'domain', ...body } });
  const listRules = async (query = '', as = suite.token) => {
    const answer = await suite.service.request('GET', `/api/v1/rules${query}`, { token: as });
    expect(answer.status).toBe(200);
    return answer.body as { data: { id: string; [field: string]: unknown }[]; next_cursor: string | null };
  };

  describe('POST /rules', () => {
    it('creates an active rule with a default label, visible to GET at once', async () => {
      const answer = await createRule({ value: '*.CDN.Skimmer.test' });
      expect(answer.status).toBe(201);
      expect(answer.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        org_id: suite.orgId,
        store_id: storeId,
        type: 'block',
        target: 'domain',
        value: 'cdn.skimmer.test',
        label: 'Block cdn.skimmer.test',
        active: true,
        created_at: clock.now().toISOString(),
        updated_at: clock.now().toISOString(),
      });
      expect((await listRules(`?store_id=${storeId}`)).data).toContainEqual(answer.body);
    });

    it.each([
      ['url', 'HTTPS://Evil-CDN.example/js/App.js?v=2#x', 'https://evil-cdn.example/js/App.js?v=2'],
      ['hash', sha384, sha384],
      ['domain', 'https://198.51.100.4:8443/x.js', '198.51.100.4'],
      ['domain', '2001:DB8::1', '[2001:db8::1]'],
      ['domain', 'LocalHost', 'localhost'],
    ])('normalizes a %s value', async (target, value, expected) => {
      const answer = await createRule({ target, value, label: ' Mine ' });
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({ target, value: expected, label: 'Mine' });
    });

    it('answers 409 conflict to the same store, type, target and value however it is spelled', async () => {
      expect((await createRule({ value: 'dup.skimmer.test' })).status).toBe(201);
      const again = await createRule({ value: 'https://DUP.skimmer.test/' });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('conflict');
      expect((await createRule({ type: 'allow', value: 'dup.skimmer.test' })).status).toBe(201);
    });

    it.each([
      ['a missing store_id', { store_id: undefined }, 'store_id'],
      ['a store_id that is not a UUID', { store_id: 'store-1' }, 'store_id'],
      ['an unknown type', { type: 'deny' }, 'type'],
      ['an unknown target', { target: 'ip' }, 'target'],
      ['an empty value', { value: '' }, 'value'],
      ['a value over 2048 characters', { value: 'a'.repeat(2049) }, 'value'],
      ['a value that is not a host name', { value: 'not a host' }, 'value'],
      ['a public suffix as domain', { value: 'com.br' }, 'value'],
      ['a top-level domain as domain', { value: 'com' }, 'value'],
      ['a relative URL', { target: 'url', value: '/a.js' }, 'value'],
      ['an ftp URL', { target: 'url', value: 'ftp://evil.example/a.js' }, 'value'],
      ['a hash of the wrong length', { target: 'hash', value: sha384.replace('sha384', 'sha256') }, 'value'],
      ['a label over 200 characters', { label: 'x'.repeat(201) }, 'label'],
      ['a numeric value', { value: 42 }, 'value'],
      ['an unknown field', { colour: 'red' }, 'colour'],
    ])('answers 400 validation_error to %s', async (_case, change, field) => {
      const answer = await createRule({ value: 'valid.skimmer.test', ...change });
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('validation_error');
      expect(answer.body.error.details.map((detail: { field: string }) => detail.field)).toContain(field);
    });

    it('answers 404 to a store that does not exist', async () => {
      const answer = await createRule({ store_id: '01900000-0000-7000-8000-000000000000', value: 'x.skimmer.test' });
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('not_found');
    });

    it('answers 409 for a suspended store', async () => {
      const suspended = await createStore(suite.token);
      await suite.call('DELETE', `/stores/${suspended}`);
      expect((await createRule({ store_id: suspended, value: 'x.skimmer.test' })).status).toBe(409);
    });
  });

  describe('PATCH /rules/{id}', () => {
    it('changes label and active; an empty body changes nothing', async () => {
      const rule = (await createRule({ value: 'patch.skimmer.test' })).body;
      clock.advance(1000);
      const answer = await suite.call('PATCH', `/rules/${rule.id}`, { label: 'Skimmer', active: false });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ ...rule, label: 'Skimmer', active: false, updated_at: clock.now().toISOString() });
      const same = await suite.call('PATCH', `/rules/${rule.id}`, {});
      expect(same.body).toEqual(answer.body);
    });

    it.each([
      ['active as a string', { active: 'no' }],
      ['an empty label', { label: '' }],
      ['a field that cannot change', { value: 'other.skimmer.test' }],
    ])('answers 400 to %s', async (_case, body) => {
      const rule = (await createRule({ value: `p${++domainCounter}.skimmer.test` })).body;
      expect((await suite.call('PATCH', `/rules/${rule.id}`, body)).status).toBe(400);
    });
  });

  describe('DELETE /rules', () => {
    it.each([
      ['/rules/{id}', (id: string) => `/api/v1/rules/${id}`],
      ['/rules?id=', (id: string) => `/api/v1/rules?id=${id.toUpperCase()}`],
    ])('deletes with %s: the rule leaves GET, a second delete is 404, and it can be created again', async (_form, url) => {
      const rule = (await createRule({ value: `del${++domainCounter}.skimmer.test` })).body;
      const answer = await suite.service.request('DELETE', url(rule.id), { token: suite.token });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ id: rule.id, deleted: true });
      expect((await listRules(`?store_id=${storeId}`)).data.map((r) => r.id)).not.toContain(rule.id);
      const twice = await suite.service.request('DELETE', url(rule.id), { token: suite.token });
      expect(twice.status).toBe(404);
      expect((await suite.call('PATCH', `/rules/${rule.id}`, { active: true })).status).toBe(404);

      clock.advance(1000);
      const again = await createRule({ value: rule.value });
      expect(again.status).toBe(201);
      expect(again.body).toMatchObject({ id: rule.id, active: true, created_at: clock.now().toISOString() });
    });

    it.each([['?'], ['?id=not-a-uuid'], ['?id=01900000-0000-7000-8000-000000000000&colour=red']])('answers 400 to DELETE /rules%s', async (query) => {
      expect((await suite.call('DELETE', `/rules${query}`)).status).toBe(400);
    });

    it('answers 400 to a malformed id and 404 to an unknown one', async () => {
      expect((await suite.service.request('DELETE', '/api/v1/rules/not-a-uuid', { token: suite.token })).status).toBe(400);
      expect((await suite.service.request('DELETE', '/api/v1/rules/01900000-0000-8000-8000-000000000000', { token: suite.token })).status).toBe(404);
    });
  });

  describe('GET /rules', () => {
    it('pages newest first without duplicates or gaps, and filters by store, type and active', async () => {
      const tenant = await suite.service.tenant(SCOPES);
      const [first, second] = [await createStore(tenant.token), await createStore(tenant.token)];
      const ids: string[] = [];
      const add = async (body: Record<string, unknown>) => {
        clock.advance(1000);
        const answer = await createRule(body, tenant.token);
        expect(answer.status).toBe(201);
        ids.push(answer.body.id);
        return answer.body;
      };
      await add({ store_id: first, value: 'a.skimmer.test' });
      await add({ store_id: first, type: 'allow', value: 'js.stripe.com' });
      const inactive = await add({ store_id: second, value: 'b.skimmer.test' });
      await add({ store_id: second, target: 'hash', value: sha384 });
      await add({ store_id: second, type: 'allow', target: 'url', value: 'https://cdn.jsdelivr.net/npm/x.js' });
      await suite.service.request('PATCH', `/api/v1/rules/${inactive.id}`, { token: tenant.token, body: { active: false } });

      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await listRules(cursor ? `?limit=2&cursor=${cursor}` : '?limit=2', tenant.token);
        expect(page.data.length).toBeLessThanOrEqual(2);
        seen.push(...page.data.map((rule) => rule.id));
        cursor = page.next_cursor;
      } while (cursor);
      expect(seen).toEqual([...ids].reverse());

      const ofSecond = await listRules(`?store_id=${second.toUpperCase()}`, tenant.token);
      expect(ofSecond.data.map((rule) => rule.id)).toEqual(ids.slice(2).reverse());
      expect((await listRules('?type=allow', tenant.token)).data.map((rule) => rule.value)).toEqual(['https://cdn.jsdelivr.net/npm/x.js', 'js.stripe.com']);
      expect((await listRules('?active=false', tenant.token)).data.map((rule) => rule.id)).toEqual([inactive.id]);
      expect((await listRules(`?active=true&type=block&store_id=${second}`, tenant.token)).data.map((rule) => rule.target)).toEqual(['hash']);
    });

    it.each([['active=yes'], ['active=1'], ['type=deny'], ['store_id=store-1'], ['limit=0'], ['limit=101'], ['cursor=bad!'], ['colour=red']])(
      'answers 400 to %s',
      async (query) => {
        const answer = await suite.get(`/rules?${query}`);
        expect(answer.status).toBe(400);
        expect(answer.body.error.code).toBe('validation_error');
      },
    );
  });

  describe('scopes', () => {
    it('lists rules with scripts:read; stores:read alone is 403', async () => {
      expect((await listRules('', (await suite.service.tenant(['scripts:read'])).token)).data).toEqual([]);
      const storesReader = await suite.service.tenant(['stores:read']);
      const answer = await suite.service.request('GET', '/api/v1/rules', { token: storesReader.token });
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('insufficient_scope');
    });

    it('needs rules:write to create, change and delete; scripts:read is not enough', async () => {
      const rule = (await createRule({ value: 'scope.skimmer.test' })).body;
      const reader = await suite.service.tenant(['scripts:read', 'stores:write']);
      const calls: [string, string, unknown?][] = [
        ['POST', '/api/v1/rules', { store_id: storeId, type: 'block', target: 'domain', value: 'y.skimmer.test' }],
        ['PATCH', `/api/v1/rules/${rule.id}`, { active: false }],
        ['DELETE', `/api/v1/rules/${rule.id}`],
        ['DELETE', `/api/v1/rules?id=${rule.id}`],
      ];
      for (const [method, url, body] of calls) {
        const answer = await suite.service.request(method, url, { token: reader.token, body });
        expect([method, url, answer.status, answer.body.error.code]).toEqual([method, url, 403, 'insufficient_scope']);
      }
    });
  });

  describe('tenancy', () => {
    it("answers 404 on every verb for another organization's rule or store", async () => {
      const rule = (await createRule({ value: 'tenancy.skimmer.test' })).body;
      const other = await suite.service.tenant(SCOPES);
      const calls: [string, string, unknown?][] = [
        ['GET', `/api/v1/rules?store_id=${storeId}`],
        ['POST', '/api/v1/rules', { store_id: storeId, type: 'block', target: 'domain', value: 'mine.skimmer.test' }],
        ['PATCH', `/api/v1/rules/${rule.id}`, { label: 'mine now' }],
        ['DELETE', `/api/v1/rules/${rule.id}`],
        ['DELETE', `/api/v1/rules?id=${rule.id}`],
      ];
      for (const [method, url, body] of calls) {
        const answer = await suite.service.request(method, url, { token: other.token, body });
        expect([method, url, answer.status, answer.body.error.code]).toEqual([method, url, 404, 'not_found']);
      }
      expect((await listRules('', other.token)).data).toEqual([]);
      expect((await listRules(`?store_id=${storeId}`)).data).toContainEqual(rule);
    });

    it('lets a partner manage the rules of a child organization with org_id, in the query or the body', async () => {
      const partner = await suite.service.tenant([...SCOPES, 'orgs:manage'], { plan: 'enterprise' });
      const child = await suite.service.createOrganization({ parent: partner.orgId, plan: 'growth', 'billing-mode': 'partner' });
      const childStore = await createStore(partner.token, `?org_id=${child.id}`);
      const created = await createRule({ store_id: childStore, value: 'child.skimmer.test', org_id: child.id }, partner.token);
      expect(created.status).toBe(201);
      expect(created.body.org_id).toBe(child.id);
      expect((await listRules(`?org_id=${child.id}`, partner.token)).data.map((rule) => rule.id)).toEqual([created.body.id]);
      expect((await listRules('', partner.token)).data).toEqual([]);
      const patched = await suite.service.request('PATCH', `/api/v1/rules/${created.body.id}?org_id=${child.id}`, { token: partner.token, body: { active: false } });
      expect(patched.body.active).toBe(false);
      expect((await suite.service.request('DELETE', `/api/v1/rules/${created.body.id}`, { token: partner.token })).status).toBe(404);
      expect((await suite.service.request('DELETE', `/api/v1/rules?id=${created.body.id}&org_id=${child.id}`, { token: partner.token })).status).toBe(200);
    });
  });

  describe('ScriptRules', () => {
    const context = { actor: 'api:test' };
    const external = () => ({ orgId: suite.orgId, storeId, inline: false as const, host: 'ensure.skimmer.test', url: 'https://ensure.skimmer.test/kit.js' });
    const rulesOf = async () => (await listRules(`?store_id=${storeId}`)).data;

    it('blocks by domain once, re-activates the rule, and re-creates a deleted one', async () => {
      const scriptRules = suite.service.app.get(ScriptRules);
      const first = await scriptRules.block(external(), context);
      expect(first).toMatchObject({ store_id: storeId, type: 'block', target: 'domain', value: 'ensure.skimmer.test', label: 'Block ensure.skimmer.test', active: true });
      expect(await scriptRules.block(external(), context)).toEqual(first);
      expect((await rulesOf()).filter((rule) => rule.id === first.id)).toHaveLength(1);

      await suite.call('PATCH', `/rules/${first.id}`, { active: false });
      clock.advance(1000);
      expect(await scriptRules.block(external(), context)).toMatchObject({ id: first.id, active: true, created_at: first.created_at, updated_at: clock.now().toISOString() });

      await suite.call('DELETE', `/rules/${first.id}`);
      expect(await scriptRules.block(external(), context)).toMatchObject({ id: first.id, active: true, label: 'Block ensure.skimmer.test' });
    });

    it('unblocks an external script with an allow rule on its URL, lifted again by the next block', async () => {
      const scriptRules = suite.service.app.get(ScriptRules);
      const blocked = await scriptRules.block(external(), context);
      await scriptRules.unblock(external(), context);
      const allow = (await rulesOf()).find((rule) => rule.type === 'allow' && rule.value === external().url);
      expect(allow).toMatchObject({ target: 'url', active: true, label: `Allow ${external().url}` });
      expect((await rulesOf()).find((rule) => rule.id === blocked.id)).toMatchObject({ active: true });

      await scriptRules.block(external(), context);
      expect((await rulesOf()).find((rule) => rule.id === allow!.id)).toMatchObject({ active: false });
    });

    it('blocks and unblocks a script whose URL is longer than a rule may be, the host block standing for it', async () => {
      const scriptRules = suite.service.app.get(ScriptRules);
      const long = { ...external(), host: 'long.skimmer.test', url: `https://long.skimmer.test/${'%C3%A9'.repeat(400)}.js` };
      expect(await scriptRules.block(long, context)).toMatchObject({ target: 'domain', value: 'long.skimmer.test', active: true });
      await scriptRules.unblock(long, context);
      expect((await rulesOf()).filter((rule) => String(rule.value).startsWith('https://long.skimmer.test/'))).toEqual([]);
    });

    it('blocks an inline script by its hash and unblocks it by lifting that rule', async () => {
      const scriptRules = suite.service.app.get(ScriptRules);
      const inline = { orgId: suite.orgId, storeId, inline: true as const, hash: sha384 };
      const rule = await scriptRules.block(inline, context);
      expect(rule).toMatchObject({ type: 'block', target: 'hash', value: sha384, active: true });
      await scriptRules.unblock(inline, context);
      expect((await rulesOf()).find(({ id }) => id === rule.id)).toMatchObject({ active: false });
      await scriptRules.unblock(inline, context);
    });

    it("refuses another organization's store as not found", async () => {
      const other = await suite.service.tenant(SCOPES);
      await expect(suite.service.app.get(ScriptRules).block({ ...external(), orgId: other.orgId }, context)).rejects.toMatchObject({ code: 'not_found' });
    });
  });
});
