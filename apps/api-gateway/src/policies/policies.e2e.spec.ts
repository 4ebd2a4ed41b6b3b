import { randomUUID } from 'node:crypto';
import { DAY_MS } from '@pss/kernel';
import { ProjectionRunner } from '@pss/projections';
import { eventually, ManualClock, sri } from '@pss/testkit';
import { AuthorizationExpiry } from '@pss/inventory/src/policies/authorization-expiry';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';

const SCOPES = ['stores:write', 'scripts:read', 'scripts:review', 'policies:read', 'policies:write'];

describe('approval policies (HTTP, embedded)', () => {
  const clock = new ManualClock('2026-06-01T12:00:00.000Z');
  const suite = embeddedSuite({ clock });

  const tenant = () => suite.service.tenant(SCOPES, { plan: 'enterprise' });
  const newStore = (token: string) => suite.service.createStore(token);
  const report = (store: { sdk_key: string }, observations: unknown[]) => suite.service.reportSdk(store.sdk_key, observations);
  const checkout = (domain: string) => [
    { kind: 'script', src: `https://${domain}/static/app.js`, hash: sri('app'), size_bytes: 1000 },
    { kind: 'script', src: 'https://sdk.mercadopago.com/js/v2', hash: sri('mp') },
    { kind: 'script', src: 'https://cdn.jsdelivr.net/npm/vue@3/dist/vue.global.prod.js', hash: sri('vue') },
    { kind: 'script', src: 'https://magentocore.net/mage.js', hash: sri('skimmer') },
  ];
  const scripts = async (token: string, storeId: string) =>
    (await suite.service.request('GET', `/api/v1/scripts?store_id=${storeId}`, { token })).body.data as any[];
  const script = async (token: string, storeId: string, fragment: string) => (await scripts(token, storeId)).find((s) => s.src.includes(fragment));
  const createPolicy = (token: string, body: Record<string, unknown>) => suite.service.request('POST', '/api/v1/policies', { token, body });

  it('seeds the four default policies for every new organization, listed in evaluation order', async () => {
    const { token } = await tenant();
    const listed = await suite.service.request('GET', '/api/v1/policies', { token });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((p: any) => [p.priority, p.mode, p.action, p.is_default])).toEqual([
      [10, 'auto', 'block', true],
      [100, 'recommend', 'authorize', true],
      [200, 'recommend', 'authorize', true],
      [1000, 'recommend', 'needs_review', true],
    ]);
    expect(listed.body.data[0]).toMatchObject({ store_id: null, version: 1, active: true, conditions: { in_threat_list: true } });
  });

  it('answers 404 to a store_id filter naming a store the organization does not have, as every list does', async () => {
    const { token } = await suite.service.tenant(['policies:read', 'scripts:read', 'alerts:read', 'reports:read'], { plan: 'enterprise' });
    const stranger = await suite.service.createStore((await tenant()).token);
    for (const list of ['policies', 'rules', 'scripts', 'alerts', 'reports/pci/snapshots', 'reports/pci/schedule']) {
      const answer = await suite.service.request('GET', `/api/v1/${list}?store_id=${stranger.id}`, { token });
      expect([list, answer.status, answer.body.error?.message]).toEqual([list, 404, 'Store not found']);
    }
    for (const list of ['policies', 'rules', 'scripts', 'alerts', 'reports/pci/snapshots', 'reports/pci/schedule']) {
      const answer = await suite.service.request('GET', `/api/v1/${list}?store_id=${randomUUID()}`, { token });
      expect([list, answer.status, answer.body.error?.message]).toEqual([list, 404, 'Store not found']);
    }
  });

  it('decides a new checkout without a click: recommends the payment provider, blocks the threat, auto-authorizes the CDN', async () => {
    const { token } = await tenant();
    const store = await newStore(token);
    const cdn = await createPolicy(token, {
      name: 'Authorize public CDNs',
      mode: 'auto',
      priority: 50,
      match: { category: ['cdn'] },
      action: 'authorize',
      justification_template: '{vendor} serves {path} from {domain}',
      expires_days: 30,
    });
    expect(cdn.status).toBe(201);
    expect(cdn.body).toMatchObject({ version: 1, is_default: false, store_id: null, conditions: {} });

    expect((await report(store, checkout(store.domain))).status).toBe(202);
    // The policies decide behind the 202, script by script in the order reported: the threat is the last.
    await eventually(() => script(token, store.id, 'magentocore'), (threat) => threat?.status === 'blocked');

    const provider = await script(token, store.id, 'mercadopago');
    expect(provider.status).toBe('needs_review');
    expect(provider.recommendation).toMatchObject({ action: 'authorize', policy_version: 1, justification: 'Payment provider Mercado Pago on sdk.mercadopago.com' });

    const threat = await script(token, store.id, 'magentocore');
    expect(threat).toMatchObject({ status: 'blocked', authorization_method: 'policy', policy_version: 1 });
    const rules = await suite.service.request('GET', `/api/v1/rules?store_id=${store.id}`, { token });
    expect(rules.body.data).toEqual([expect.objectContaining({ type: 'block', target: 'domain', value: 'magentocore.net' })]);

    const vue = await script(token, store.id, 'jsdelivr');
    expect(vue).toMatchObject({
      status: 'authorized',
      integrity_status: 'match',
      authorization_method: 'policy',
      policy_id: cdn.body.id,
      policy_version: 1,
      justification: expect.stringMatching(/ serves \/npm\/vue@3\/dist\/vue\.global\.prod\.js from cdn\.jsdelivr\.net$/),
      expires_at: new Date(clock.now().getTime() + 30 * DAY_MS).toISOString(),
    });
    expect(Date.parse(vue.review_due_at)).toBe(Date.parse(vue.expires_at) - 7 * DAY_MS);
  });

  it('decides behind the 202 without waiting for the read models after each decision (nobody reads it back)', async () => {
    const { token } = await tenant();
    const store = await newStore(token);
    const waits = jest.spyOn(suite.service.app.get(ProjectionRunner), 'waitFor');
    try {
      await report(store, [{ kind: 'script', src: 'https://magentocore.net/other.js', hash: sri('another skimmer') }]);
      await eventually(() => script(token, store.id, 'magentocore'), (threat) => threat?.status === 'blocked');
      const waitedFor = waits.mock.calls.flatMap(([, events]) => events ?? []).map((event) => event.type);
      expect(waitedFor).toContain('ScriptDetected'); // the SDK's own write is read back by its client
      expect(waitedFor).not.toContain('ScriptBlocked');
    } finally {
      waits.mockRestore();
    }
  });

  it('simulates exactly what apply then does, and changes nothing itself', async () => {
    const { token } = await tenant();
    const store = await newStore(token);
    await report(store, checkout(store.domain));
    const firstParty = (await suite.service.request('GET', `/api/v1/policies`, { token })).body.data.find((p: any) => p.priority === 100);

    const simulated = await suite.service.request('POST', `/api/v1/policies/${firstParty.id}/simulate`, { token, body: { store_id: store.id } });
    expect(simulated.status).toBe(200);
    expect(simulated.body).toEqual({
      policy_id: firstParty.id,
      store_id: store.id,
      would_authorize: [expect.objectContaining({ src: `https://${store.domain}/static/app.js`, type: 'first_party', status: 'needs_review' })],
      would_block: [],
      would_review: [],
      unchanged: 3,
    });
    expect((await script(token, store.id, 'static/app')).status).toBe('needs_review');

    const applied = await suite.service.request('POST', `/api/v1/policies/${firstParty.id}/apply`, { token, body: { store_id: store.id } });
    expect(applied.body).toEqual({ policy_id: firstParty.id, store_id: store.id, authorized: 1, blocked: 0, needs_review: 0, unchanged: 3 });
    expect(await script(token, store.id, 'static/app')).toMatchObject({ status: 'authorized', authorization_method: 'policy', justification: `First-party script from ${store.domain}` });
    const again = await suite.service.request('POST', `/api/v1/policies/${firstParty.id}/simulate`, { token, body: { store_id: store.id } });
    expect(again.body.unchanged).toBe(4);
  });

  it("lets a script a policy blocked run again when a policy authorizes it: an allow rule on its URL beside the host's block", async () => {
    const { token } = await tenant();
    const store = await newStore(token);
    await report(store, [{ kind: 'script', src: 'https://magentocore.net/mage.js?session=9', hash: sri('a vetted build') }]);
    const threat = await eventually(() => script(token, store.id, 'magentocore'), (found) => found?.status === 'blocked');
    const vetted = await createPolicy(token, { name: 'Vetted by the team', mode: 'recommend', priority: 5, match: { domain: ['magentocore.net'] }, action: 'authorize' });
    const applied = await suite.service.request('POST', `/api/v1/policies/${vetted.body.id}/apply`, { token, body: { store_id: store.id } });
    expect(applied.body).toMatchObject({ authorized: 1, unchanged: 0 });
    expect(await script(token, store.id, 'magentocore')).toMatchObject({ id: threat.id, status: 'authorized', authorization_method: 'policy' });
    const config = (await suite.service.request('GET', `/sdk/v1/config?key=${store.sdk_key}`)).body.rules;
    expect(config).toEqual({
      block: [expect.objectContaining({ target: 'domain', value: 'magentocore.net' })],
      allow: [expect.objectContaining({ target: 'url', value: 'https://magentocore.net/mage.js' })],
    });
  });

  it('never overturns a decision taken by hand', async () => {
    const { token } = await tenant();
    const store = await newStore(token);
    await report(store, checkout(store.domain));
    const provider = await script(token, store.id, 'mercadopago');
    await suite.service.request('POST', `/api/v1/scripts/${provider.id}/block`, { token, body: { justification: 'We use another provider' } });
    const payments = (await suite.service.request('GET', '/api/v1/policies', { token })).body.data.find((p: any) => p.priority === 200);
    const applied = await suite.service.request('POST', `/api/v1/policies/${payments.id}/apply`, { token, body: { store_id: store.id } });
    expect(applied.body.authorized).toBe(0);
    expect(await script(token, store.id, 'mercadopago')).toMatchObject({ status: 'blocked', authorization_method: 'api' });
  });

  it('increments the version once per request that changes what the policy decides', async () => {
    const { token } = await tenant();
    const created = (await createPolicy(token, { name: 'P', action: 'needs_review' })).body;
    const patch = (body: Record<string, unknown>) => suite.service.request('PATCH', `/api/v1/policies/${created.id}`, { token, body });
    expect((await patch({ name: 'Renamed', priority: 7, mode: 'auto' })).body.version).toBe(1);
    expect((await patch({ match: { origin: 'inline' }, action: 'block', expires_days: 5 })).body.version).toBe(2);
    expect((await patch({ conditions: { has_integrity_attr: true } })).body.version).toBe(3);
    expect((await patch({ justification_template: null })).body.version).toBe(3);
    const read = (await suite.service.request('GET', '/api/v1/policies', { token })).body.data.find((p: any) => p.id === created.id);
    expect(read).toMatchObject({ name: 'Renamed', priority: 7, mode: 'auto', action: 'block', expires_days: 5, version: 3 });
  });

  it.each([
    ['a missing name', { action: 'block' }, 'name'],
    ['an unknown action', { name: 'P', action: 'allow' }, 'action'],
    ['an unknown mode', { name: 'P', action: 'block', mode: 'force' }, 'mode'],
    ['an unknown match key', { name: 'P', action: 'block', match: { colour: ['red'] } }, 'match.colour'],
    ['an unknown origin', { name: 'P', action: 'block', match: { origin: 'elsewhere' } }, 'match.origin'],
    ['a domain that is not a list', { name: 'P', action: 'block', match: { domain: 'stripe.com' } }, 'match.domain'],
    ['a path glob not starting with /', { name: 'P', action: 'block', match: { path_glob: ['*.js'] } }, 'match.path_glob'],
    ['an unknown condition', { name: 'P', action: 'block', conditions: { trusted: true } }, 'conditions.trusted'],
    ['prevalence_min over 1', { name: 'P', action: 'block', conditions: { prevalence_min: 1.5 } }, 'conditions.prevalence_min'],
    ['a boolean condition as a string', { name: 'P', action: 'block', conditions: { same_origin: 'yes' } }, 'conditions.same_origin'],
    ['expires_days 0', { name: 'P', action: 'authorize', expires_days: 0 }, 'expires_days'],
    ['a name over 120 characters', { name: 'x'.repeat(121), action: 'block' }, 'name'],
  ])('answers 400 validation_error to %s', async (_case, body, field) => {
    const { token } = await tenant();
    const answer = await createPolicy(token, body);
    expect(answer.status).toBe(400);
    expect(answer.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    for (const detail of answer.body.error.details) expect(detail.message).not.toMatch(/(\w+)\.\1\./); // no doubled path
  });

  it('names a nested field once in a message the DTO already words with its path', async () => {
    const { token } = await tenant();
    const answer = await createPolicy(token, { name: 'P', action: 'block', match: { domain: ['cdn example.com'] } });
    expect(answer.body.error.details).toEqual([{ field: 'match.domain', message: 'match.domain items must be host names, optionally starting with *.' }]);
  });

  it('refuses an empty match list, which would match nothing, and says how to match any', async () => {
    const { token } = await tenant();
    const answer = await createPolicy(token, { name: 'P', action: 'block', match: { domain: [], vendor_id: [] } });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details).toEqual([
      { field: 'match.domain', message: 'match.domain must not be empty: leave it out to match any' },
      { field: 'match.vendor_id', message: 'match.vendor_id must not be empty: leave it out to match any' },
    ]);
  });

  it('needs store_id to simulate an organization-level policy, and refuses another store for a store policy', async () => {
    const { token } = await tenant();
    const store = await newStore(token);
    const other = await newStore(token);
    const organizationWide = (await suite.service.request('GET', '/api/v1/policies', { token })).body.data[0];
    const missing = await suite.service.request('POST', `/api/v1/policies/${organizationWide.id}/simulate`, { token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details[0].field).toBe('store_id');
    const own = (await createPolicy(token, { name: 'Store only', action: 'needs_review', store_id: store.id })).body;
    expect((await suite.service.request('POST', `/api/v1/policies/${own.id}/simulate`, { token, body: {} })).status).toBe(200);
    expect((await suite.service.request('POST', `/api/v1/policies/${own.id}/simulate`, { token, body: { store_id: other.id } })).status).toBe(400);
  });

  it("lists an organization's policies plus one store's own with store_id, and filters by active", async () => {
    const { token } = await tenant();
    const store = await newStore(token);
    const other = await newStore(token);
    await createPolicy(token, { name: 'Mine', action: 'needs_review', store_id: store.id, active: false });
    await createPolicy(token, { name: 'Theirs', action: 'needs_review', store_id: other.id });
    const forStore = (await suite.service.request('GET', `/api/v1/policies?store_id=${store.id}`, { token })).body.data.map((p: any) => p.name);
    expect(forStore).toContain('Mine');
    expect(forStore).not.toContain('Theirs');
    expect(forStore).toHaveLength(5);
    const inactive = (await suite.service.request('GET', '/api/v1/policies?active=false', { token })).body.data.map((p: any) => p.name);
    expect(inactive).toEqual(['Mine']);
    const paged = await suite.service.request('GET', '/api/v1/policies?limit=2', { token });
    expect(paged.body.data).toHaveLength(2);
    expect(paged.body.next_cursor).toEqual(expect.any(String));
  });

  it('deletes a policy: gone from the list, a second delete is 404', async () => {
    const { token } = await tenant();
    const created = (await createPolicy(token, { name: 'Temporary', action: 'block' })).body;
    const deleted = await suite.service.request('DELETE', `/api/v1/policies/${created.id}`, { token });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: created.id, deleted: true });
    expect((await suite.service.request('GET', '/api/v1/policies', { token })).body.data.map((p: any) => p.id)).not.toContain(created.id);
    expect((await suite.service.request('DELETE', `/api/v1/policies/${created.id}`, { token })).status).toBe(404);
  });

  it('keeps scopes and tenants apart', async () => {
    const owner = await tenant();
    const store = await newStore(owner.token);
    const policy = (await suite.service.request('GET', '/api/v1/policies', { token: owner.token })).body.data[0];
    const reader = await suite.service.tenant(['policies:read']);
    expect((await suite.service.request('POST', `/api/v1/policies/${policy.id}/apply`, { token: reader.token, body: { store_id: store.id } })).status).toBe(403);
    const stranger = await tenant();
    for (const [method, url, body] of [
      ['PATCH', `/api/v1/policies/${policy.id}`, { name: 'mine' }],
      ['DELETE', `/api/v1/policies/${policy.id}`, undefined],
      ['POST', `/api/v1/policies/${policy.id}/simulate`, { store_id: store.id }],
    ] as const) {
      expect((await suite.service.request(method, url, { token: stranger.token, body })).status).toBe(404);
    }
    const strangerPolicy = (await suite.service.request('GET', '/api/v1/policies', { token: stranger.token })).body.data[0];
    expect((await suite.service.request('POST', `/api/v1/policies/${strangerPolicy.id}/simulate`, { token: stranger.token, body: { store_id: store.id } })).status).toBe(404);
  });

  it('returns expired authorizations to review with authorization_method expiry', async () => {
    const { token } = await tenant();
    const store = await newStore(token);
    await report(store, checkout(store.domain));
    const app = await script(token, store.id, 'static/app');
    await suite.service.request('POST', `/api/v1/scripts/${app.id}/authorize`, { token, body: { justification: 'Ours', expires_days: 2 } });
    const expiry = suite.service.app.get(AuthorizationExpiry);
    expect(await expiry.run()).toBe(0);
    const authorized = await script(token, store.id, 'static/app');
    expect(Date.parse(authorized.review_due_at)).toBe(clock.now().getTime() + DAY_MS);

    clock.advance(2 * DAY_MS);
    expect(await expiry.run()).toBeGreaterThanOrEqual(1);
    expect(await expiry.run()).toBe(0);
    expect(await script(token, store.id, 'static/app')).toMatchObject({ status: 'needs_review', authorization_method: 'expiry', expires_at: null });
  });
});
