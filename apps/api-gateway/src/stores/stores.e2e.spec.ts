import { createHash } from 'node:crypto';
import { DAY_MS } from '@pss/kernel';
import { ManualClock } from '@pss/testkit';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';

const WRITE = ['stores:read', 'stores:write', 'pages:write'];
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
let domainCounter = 0;
const uniqueDomain = () => `loja${++domainCounter}-${Date.now().toString(36)}.example.com.br`;

describe('stores (HTTP, embedded)', () => {
  const clock = new ManualClock('2026-03-02T12:00:00.000Z');
  const suite = embeddedSuite({ clock, scopes: WRITE, organization: { plan: 'enterprise', 'billing-mode': 'processor' } });

  const createStore = (body: Record<string, unknown>, as = suite.token) => suite.service.request('POST', '/api/v1/stores', { token: as, body });

  describe('POST /stores', () => {
    it('creates a store with the spec defaults, an SDK key, snippets, hashed recipients and pages', async () => {
      const domain = uniqueDomain();
      const answer = await createStore({
        domain: `HTTPS://${domain.toUpperCase()}:443/checkout?x=1`,
        recipients: [{ method: 'pix', key: '123.456.789-09', label: 'Main Pix' }],
        payment_pages: [{ url_pattern: '/checkout/*', payment_methods: ['pix', 'card'] }],
      });
      expect(answer.status).toBe(201);
      const store = answer.body;
      expect(store).toMatchObject({
        org_id: suite.orgId,
        name: domain,
        domain,
        country: 'BR',
        timezone: 'America/Sao_Paulo',
        status: 'active',
        emergency_contact: null,
        sdk_config: {
          mode: 'monitor',
          calibration_seconds: 30,
          overlay_check_interval_ms: 2000,
          installation_order_policy: 'warn',
          sensitive_fields: null,
          allowed_service_workers: [],
          gtm_containers: [],
          developer_mode: false,
          release_channel: 'stable',
        },
      });
      expect(store.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(store.sdk_key).toMatch(/^pk_live_[0-9a-f]{32}$/);
      expect(typeof store.safe_slug).toBe('string');
      expect(store.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(store.sdk_config.updated_at).toBe(store.created_at);
      expect(store.recipients).toEqual([
        {
          id: expect.any(String),
          method: 'pix',
          key_masked: expect.stringMatching(/^12\*+09$/),
          key_hash: sha256('12345678909'),
          label: 'Main Pix',
          active: true,
          created_at: store.created_at,
        },
      ]);
      expect(JSON.stringify(store)).not.toContain('123.456.789-09');
      expect(store.pages).toEqual([
        expect.objectContaining({
          store_id: store.id,
          url_pattern: '/checkout/*',
          url: `https://${domain}/checkout/`,
          domain,
          is_payment_page: true,
          mode: 'monitor',
          payment_methods: ['pix', 'card'],
          status: 'active',
        }),
      ]);
      for (const kind of ['html', 'nextjs', 'nuxt', 'wordpress']) expect(store.snippets[kind]).toContain(store.sdk_key);
    });

    it('is visible to GET at once (read-your-writes), without pages and snippets', async () => {
      const created = (await createStore({ domain: uniqueDomain(), name: 'Loja' })).body;
      const read = await suite.get(`/stores/${created.id}`);
      expect(read.status).toBe(200);
      const { pages: _pages, snippets: _snippets, ...rest } = created;
      expect(read.body).toEqual(rest);
    });

    it('refuses a domain that exists after normalization with 409 conflict', async () => {
      const domain = uniqueDomain();
      expect((await createStore({ domain })).status).toBe(201);
      const again = await createStore({ domain: `http://${domain.toUpperCase()}./` });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('conflict');
    });

    // Another organization's claim is refused only once a store verified the domain (domain-verification.e2e.spec.ts).
    it('lets another organization claim a domain no store verified: a first claim cannot keep the owner out (issue 29, 9d)', async () => {
      const domain = uniqueDomain();
      await createStore({ domain });
      const other = await suite.service.tenant(WRITE);
      expect((await createStore({ domain }, other.token)).body).toMatchObject({ domain, domain_claim: 'unverified' });
    });

    it.each([
      ['a missing domain', { domain: undefined }, 'domain'],
      ['a domain that is not a host name', { domain: 'localhost' }, 'domain'],
      ['a name over 120 characters', { name: 'x'.repeat(121) }, 'name'],
      ['a 3-letter country', { country: 'BRA' }, 'country'],
      ['a 1-letter country', { country: 'B' }, 'country'],
      ['an unknown timezone', { timezone: 'Mars/Olympus' }, 'timezone'],
      ['an emergency contact over 32 characters', { emergency_contact: 'x'.repeat(33) }, 'emergency_contact'],
      ['calibration_seconds 9', { calibration_seconds: 9 }, 'calibration_seconds'],
      ['calibration_seconds 121', { calibration_seconds: 121 }, 'calibration_seconds'],
      ['calibration_seconds as a string', { calibration_seconds: '30' }, 'calibration_seconds'],
      ['overlay_check_interval_ms 499', { overlay_check_interval_ms: 499 }, 'overlay_check_interval_ms'],
      ['overlay_check_interval_ms 60001', { overlay_check_interval_ms: 60001 }, 'overlay_check_interval_ms'],
      ['an unknown mode', { mode: 'enforce' }, 'mode'],
      ['a null mode', { mode: null }, 'mode'],
      ['an unknown installation_order_policy', { installation_order_policy: 'block' }, 'installation_order_policy'],
      ['an unknown release_channel', { release_channel: 'beta' }, 'release_channel'],
      ['developer_mode as a string', { developer_mode: 'yes' }, 'developer_mode'],
      ['a service worker that is not a path', { allowed_service_workers: ['https://x.com/sw.js'] }, 'allowed_service_workers'],
      ['an iframe origin that is not a host', { expected_iframe_origins: ['not a host'] }, 'expected_iframe_origins'],
      ['51 recipients', { recipients: Array.from({ length: 51 }, (_, i) => ({ method: 'pix', key: `k${i}` })) }, 'recipients'],
      ['a recipient without key', { recipients: [{ method: 'pix' }] }, 'recipients.0.key'],
      ['51 payment pages', { payment_pages: Array.from({ length: 51 }, (_, i) => ({ url_pattern: `/p${i}`, payment_methods: [] })) }, 'payment_pages'],
      ['a page pattern that is not a path', { payment_pages: [{ url_pattern: 'checkout', payment_methods: [] }] }, 'payment_pages.0.url_pattern'],
      ['an unknown field', { colour: 'blue' }, 'colour'],
    ])('answers 400 validation_error to %s', async (_case, change, field) => {
      const answer = await createStore({ domain: uniqueDomain(), ...change });
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('validation_error');
      expect(answer.body.error.details.map((detail: { field: string }) => detail.field)).toContain(field);
    });

    it('accepts every limit exactly at its edge', async () => {
      const answer = await createStore({
        domain: uniqueDomain(),
        name: 'n'.repeat(120),
        country: 'pt',
        timezone: 'Europe/Lisbon',
        emergency_contact: '+'.padEnd(32, '1'),
        calibration_seconds: 120,
        overlay_check_interval_ms: 500,
        mode: 'block',
        expected_iframe_origins: ['*.Pagar.me', 'https://checkout.stripe.com'],
        recipients: Array.from({ length: 50 }, (_, i) => ({ method: 'pix', key: `chave-${i}@loja.com` })),
        payment_pages: Array.from({ length: 50 }, (_, i) => ({ url_pattern: `/checkout/${i}`, payment_methods: ['pix'] })),
      });
      expect(answer.status).toBe(201);
      expect(answer.body.country).toBe('PT');
      expect(answer.body.sdk_config.expected_iframe_origins).toEqual(['pagar.me', 'https://checkout.stripe.com']);
      expect(answer.body.recipients).toHaveLength(50);
      expect(answer.body.pages).toHaveLength(50);
    });

    it('answers 400 validation_error to malformed JSON', async () => {
      const answer = await suite.service.request('POST', '/api/v1/stores', { token: suite.token, body: '{"domain": ' });
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('validation_error');
    });

    it('needs stores:write', async () => {
      const reader = await suite.service.tenant(['stores:read']);
      const answer = await createStore({ domain: uniqueDomain() }, reader.token);
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('insufficient_scope');
    });
  });

  describe('plan limits', () => {
    it('refuses the store over the plan limit with 403 plan_limit, and a suspended store frees its slot', async () => {
      const essential = await suite.service.tenant(WRITE, { plan: 'essential', 'billing-mode': 'processor' });
      const first = await createStore({ domain: uniqueDomain() }, essential.token);
      expect(first.status).toBe(201);
      const second = await createStore({ domain: uniqueDomain() }, essential.token);
      expect(second.status).toBe(403);
      expect(second.body.error.code).toBe('plan_limit');

      await suite.service.request('DELETE', `/api/v1/stores/${first.body.id}`, { token: essential.token });
      expect((await createStore({ domain: uniqueDomain() }, essential.token)).status).toBe(201);
    });

    it('skips the limit for partner-billed organizations', async () => {
      const partnerBilled = await suite.service.tenant(WRITE, { plan: 'essential', 'billing-mode': 'partner' });
      for (let i = 0; i < 3; i += 1) expect((await createStore({ domain: uniqueDomain() }, partnerBilled.token)).status).toBe(201);
    });

    it('answers a taken domain with 409 before a full plan with 403, and keeps the domain free after a 403', async () => {
      const full = await suite.service.tenant(WRITE, { plan: 'essential', 'billing-mode': 'processor' });
      const taken = uniqueDomain();
      expect((await createStore({ domain: taken }, full.token)).status).toBe(201);
      expect((await createStore({ domain: taken }, full.token)).body.error.code).toBe('conflict');
      const free = uniqueDomain();
      expect((await createStore({ domain: free }, full.token)).body.error.code).toBe('plan_limit');
      expect((await createStore({ domain: free })).status).toBe(201);
    });
  });

  describe('GET /stores', () => {
    it('pages through the organization stores newest first, without duplicates or gaps', async () => {
      const tenant = await suite.service.tenant(WRITE, { plan: 'enterprise' });
      const ids: string[] = [];
      for (let i = 0; i < 5; i += 1) ids.push((await createStore({ domain: uniqueDomain() }, tenant.token)).body.id);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = cursor ? `?limit=2&cursor=${cursor}` : '?limit=2';
        const page = await suite.service.request('GET', `/api/v1/stores${query}`, { token: tenant.token });
        expect(page.status).toBe(200);
        expect(page.body.data.length).toBeLessThanOrEqual(2);
        seen.push(...page.body.data.map((store: { id: string }) => store.id));
        if (seen.length === 2) await createStore({ domain: uniqueDomain() }, tenant.token); // added while paging
        cursor = page.body.next_cursor;
      } while (cursor);
      expect(seen).toEqual([...ids].reverse());
    });

    it('filters by status', async () => {
      const tenant = await suite.service.tenant(WRITE, { plan: 'enterprise' });
      const kept = (await createStore({ domain: uniqueDomain() }, tenant.token)).body;
      const suspended = (await createStore({ domain: uniqueDomain() }, tenant.token)).body;
      await suite.service.request('DELETE', `/api/v1/stores/${suspended.id}`, { token: tenant.token });
      const active = await suite.service.request('GET', '/api/v1/stores?status=active', { token: tenant.token });
      expect(active.body.data.map((s: { id: string }) => s.id)).toEqual([kept.id]);
    });

    it.each([['limit=0'], ['limit=101'], ['limit=abc'], ['limit=1e2'], ['limit=0x10'], ['limit=1.0'], ['status=gone']])('answers 400 to %s', async (query) => {
      expect((await suite.get(`/stores?${query}`)).status).toBe(400);
    });
  });

  describe('PATCH /stores/{id}', () => {
    it('changes the profile and the SDK config, and replaces the recipients', async () => {
      const store = (await createStore({ domain: uniqueDomain(), recipients: [{ method: 'pix', key: 'a@loja.com', label: 'A' }] })).body;
      clock.advance(1000);
      const answer = await suite.service.request('PATCH', `/api/v1/stores/${store.id}`, {
        token: suite.token,
        body: { name: 'Renamed', developer_mode: true, calibration_seconds: 60, recipients: [{ method: 'pix', key: 'b@loja.com' }] },
      });
      expect(answer.status).toBe(200);
      expect(answer.body.name).toBe('Renamed');
      expect(answer.body.sdk_config).toMatchObject({ developer_mode: true, calibration_seconds: 60, mode: 'monitor' });
      expect(answer.body.sdk_config.updated_at).not.toBe(store.created_at);
      expect(answer.body.recipients).toEqual([expect.objectContaining({ method: 'pix', key_hash: sha256('b@loja.com') })]);
      expect(answer.body.updated_at).not.toBe(store.updated_at);
    });

    it('keeps a recipient sent again unchanged (same id), and an empty list removes them all', async () => {
      const store = (await createStore({ domain: uniqueDomain(), recipients: [{ method: 'pix', key: 'a@loja.com' }] })).body;
      const same = await suite.call('PATCH', `/stores/${store.id}`, { recipients: [{ method: 'pix', key: 'A@LOJA.COM' }] });
      expect(same.body.recipients[0].id).toBe(store.recipients[0].id);
      const none = await suite.call('PATCH', `/stores/${store.id}`, { recipients: [] });
      expect(none.body.recipients).toEqual([]);
    });

    it('sets and clears the emergency contact', async () => {
      const store = (await createStore({ domain: uniqueDomain(), emergency_contact: '+5511999990000' })).body;
      const cleared = await suite.call('PATCH', `/stores/${store.id}`, { emergency_contact: null });
      expect(cleared.body.emergency_contact).toBeNull();
    });

    it.each([
      ['an unknown field', { domain: 'other.example.com' }],
      ['calibration_seconds out of range', { calibration_seconds: 5 }],
      ['51 recipients', { recipients: Array.from({ length: 51 }, (_, i) => ({ method: 'pix', key: `k${i}` })) }],
    ])('answers 400 to %s', async (_case, body) => {
      const store = (await createStore({ domain: uniqueDomain() })).body;
      expect((await suite.call('PATCH', `/stores/${store.id}`, body)).status).toBe(400);
    });
  });

  describe('DELETE /stores/{id}', () => {
    it('suspends the store and keeps its data; a suspended store can be read but not changed', async () => {
      const store = (await createStore({ domain: uniqueDomain() })).body;
      const answer = await suite.call('DELETE', `/stores/${store.id}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ id: store.id, status: 'suspended' });
      const read = await suite.get(`/stores/${store.id}`);
      expect(read.body.status).toBe('suspended');
      expect(read.body.domain).toBe(store.domain);
      expect((await suite.call('DELETE', `/stores/${store.id}`)).body).toEqual({ id: store.id, status: 'suspended' });
      expect((await suite.call('PATCH', `/stores/${store.id}`, { name: 'x' })).status).toBe(409);
    });
  });

  describe('POST /stores/{id}/rotate-key', () => {
    it('issues a new key; the previous one stays valid for 24 hours', async () => {
      const store = (await createStore({ domain: uniqueDomain() })).body;
      const answer = await suite.call('POST', `/stores/${store.id}/rotate-key`);
      expect(answer.status).toBe(200);
      expect(answer.body.id).toBe(store.id);
      expect(answer.body.sdk_key).toMatch(/^pk_live_[0-9a-f]{32}$/);
      expect(answer.body.sdk_key).not.toBe(store.sdk_key);
      expect(Date.parse(answer.body.previous_key_valid_until) - clock.now().getTime()).toBe(DAY_MS);
      expect(answer.body.snippets.html).toContain(answer.body.sdk_key);
      expect((await suite.get(`/stores/${store.id}`)).body.sdk_key).toBe(answer.body.sdk_key);
    });

    it('accepts a JSON content type with an empty body, as many clients send on body-less POSTs', async () => {
      const store = (await createStore({ domain: uniqueDomain() })).body;
      const answer = await suite.service.request('POST', `/api/v1/stores/${store.id}/rotate-key`, { token: suite.token, headers: { 'content-type': 'application/json' } });
      expect(answer.status).toBe(200);
      const polluted = await suite.service.request('POST', '/api/v1/stores', { token: suite.token, body: '{"__proto__": {"admin": true}, "domain": "x.example.com"}' });
      expect(polluted.status).toBe(400);
    });
  });

  describe('payment pages', () => {
    it('adds one page or several, lists them, and refuses a pattern twice', async () => {
      const store = (await createStore({ domain: uniqueDomain(), payment_pages: [{ url_pattern: '/checkout', payment_methods: ['pix'] }] })).body;
      const one = await suite.call('POST', `/stores/${store.id}/pages`, { url_pattern: '/pay/*', payment_methods: ['card'] });
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ store_id: store.id, url_pattern: '/pay/*', payment_methods: ['card'] });
      const many = await suite.service.request('POST', `/api/v1/stores/${store.id}/pages`, {
        token: suite.token,
        body: { payment_pages: [{ url_pattern: '/a', payment_methods: [] }, { url_pattern: '/b', payment_methods: [] }] },
      });
      expect(many.body.data).toHaveLength(2);
      const listed = await suite.get(`/stores/${store.id}/pages`);
      expect(listed.body).toEqual({ data: expect.any(Array) });
      expect(listed.body.data.map((p: { url_pattern: string }) => p.url_pattern)).toEqual(['/checkout', '/pay/*', '/a', '/b']);
      expect(listed.body.next_cursor).toBeUndefined();
      const twice = await suite.call('POST', `/stores/${store.id}/pages`, { url_pattern: '/a', payment_methods: [] });
      expect(twice.status).toBe(409);
      const repeated = await suite.service.request('POST', `/api/v1/stores/${store.id}/pages`, {
        token: suite.token,
        body: { payment_pages: [{ url_pattern: '/c', payment_methods: [] }, { url_pattern: '/c', payment_methods: [] }] },
      });
      expect(repeated.status).toBe(400);
      expect(repeated.body.error.details).toEqual([{ field: 'payment_pages.1.url_pattern', message: 'url_pattern /c is listed twice in this request' }]);
    });

    it('needs pages:write to add and stores:read to list', async () => {
      const store = (await createStore({ domain: uniqueDomain() })).body;
      const writer = await suite.service.tenant(['stores:write']);
      expect((await suite.service.request('POST', `/api/v1/stores/${store.id}/pages`, { token: writer.token, body: { url_pattern: '/x', payment_methods: [] } })).status).toBe(403);
      expect((await suite.service.request('GET', `/api/v1/stores/${store.id}/pages`, { token: writer.token })).status).toBe(403);
    });

    it('answers 400 to a body with neither form', async () => {
      const store = (await createStore({ domain: uniqueDomain() })).body;
      const answer = await suite.call('POST', `/stores/${store.id}/pages`, {});
      expect(answer.status).toBe(400);
    });
  });

  describe('GET /stores/{id}/status', () => {
    it('reports an SDK that never reported as not installed', async () => {
      const store = (await createStore({ domain: uniqueDomain() })).body;
      const answer = await suite.get(`/stores/${store.id}/status`);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        store_id: store.id,
        status: 'active',
        sdk: { installed: false, paused: false, last_event_at: null, silent: false, events_total: 0 },
        scripts: { total: 0, needs_review: 0, authorized: 0, blocked: 0 },
        alerts: { open: 0 },
        csp: { stale: false, deployed: [] },
      });
    });
  });

  describe('tenancy', () => {
    it('answers 404 on every verb for a store of another organization', async () => {
      const store = (await createStore({ domain: uniqueDomain() })).body;
      const other = await suite.service.tenant(WRITE);
      const calls: [string, string, unknown?][] = [
        ['GET', `/api/v1/stores/${store.id}`],
        ['PATCH', `/api/v1/stores/${store.id}`, { name: 'mine now' }],
        ['DELETE', `/api/v1/stores/${store.id}`],
        ['POST', `/api/v1/stores/${store.id}/rotate-key`],
        ['GET', `/api/v1/stores/${store.id}/pages`],
        ['POST', `/api/v1/stores/${store.id}/pages`, { url_pattern: '/x', payment_methods: [] }],
        ['GET', `/api/v1/stores/${store.id}/status`],
      ];
      for (const [method, url, body] of calls) {
        const answer = await suite.service.request(method, url, { token: other.token, body });
        expect([method, url, answer.status]).toEqual([method, url, 404]);
        expect(answer.body.error.code).toBe('not_found');
      }
      expect((await suite.service.request('GET', '/api/v1/stores', { token: other.token })).body.data).toEqual([]);
      expect((await suite.get(`/stores/${store.id}`)).body.status).toBe('active');
    });

    it('answers 400 to a malformed id and 404 to an unknown one', async () => {
      expect((await suite.service.request('GET', '/api/v1/stores/not-a-uuid', { token: suite.token })).status).toBe(400);
      expect((await suite.service.request('GET', '/api/v1/stores/01900000-0000-7000-8000-000000000000', { token: suite.token })).status).toBe(404);
    });
  });

  describe('partners acting on child organizations (org_id)', () => {
    it('creates, lists, rotates and suspends stores of a child; a stranger sees none of it', async () => {
      const partner = await suite.service.tenant([...WRITE, 'orgs:manage'], { plan: 'enterprise' });
      const child = await suite.service.createOrganization({ parent: partner.orgId, plan: 'growth', 'billing-mode': 'partner' });

      const created = await suite.service.request('POST', `/api/v1/stores?org_id=${child.id}`, { token: partner.token, body: { domain: uniqueDomain() } });
      expect(created.status).toBe(201);
      expect(created.body.org_id).toBe(child.id);
      const viaBody = await suite.service.request('POST', '/api/v1/stores', { token: partner.token, body: { domain: uniqueDomain(), org_id: child.id } });
      expect(viaBody.body.org_id).toBe(child.id);

      const listed = await suite.service.request('GET', `/api/v1/stores?org_id=${child.id}`, { token: partner.token });
      expect(listed.body.data).toHaveLength(2);
      expect((await suite.service.request('GET', '/api/v1/stores', { token: partner.token })).body.data).toEqual([]);

      expect((await suite.service.request('POST', `/api/v1/stores/${created.body.id}/rotate-key?org_id=${child.id}`, { token: partner.token })).status).toBe(200);
      expect((await suite.service.request('DELETE', `/api/v1/stores/${created.body.id}?org_id=${child.id}`, { token: partner.token })).body.status).toBe('suspended');
      expect((await suite.service.request('GET', `/api/v1/stores/${created.body.id}`, { token: partner.token })).status).toBe(404);

      const stranger = await suite.service.tenant([...WRITE, 'orgs:manage']);
      const refused = await suite.service.request('GET', `/api/v1/stores?org_id=${child.id}`, { token: stranger.token });
      expect(refused.status).toBe(404);
      const unknown = await suite.service.request('GET', '/api/v1/stores?org_id=01900000-0000-7000-8000-000000000000', { token: stranger.token });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(refused.body);
    });

    it('needs orgs:manage to use org_id, even naming the token\'s own organization', async () => {
      const partner = await suite.service.tenant(WRITE);
      const child = await suite.service.createOrganization({ parent: partner.orgId });
      for (const orgId of [child.id, partner.orgId]) {
        const answer = await suite.service.request('GET', `/api/v1/stores?org_id=${orgId}`, { token: partner.token });
        expect([answer.status, answer.body.error?.code]).toEqual([403, 'insufficient_scope']);
      }
    });

    it('reads org_id in any case, and refuses a query and a body naming two organizations', async () => {
      const partner = await suite.service.tenant([...WRITE, 'orgs:manage'], { plan: 'enterprise' });
      const child = await suite.service.createOrganization({ parent: partner.orgId, plan: 'growth', 'billing-mode': 'partner' });
      const upper = String(child.id).toUpperCase();
      const created = await suite.service.request('POST', `/api/v1/stores?org_id=${upper}`, { token: partner.token, body: { domain: uniqueDomain(), org_id: upper } });
      expect([created.status, created.body.org_id]).toEqual([201, child.id]);
      expect((await suite.service.request('GET', `/api/v1/stores?org_id=${partner.orgId}`, { token: partner.token })).status).toBe(200);

      const conflicting = await suite.service.request('POST', `/api/v1/stores?org_id=${child.id}`, { token: partner.token, body: { domain: uniqueDomain(), org_id: partner.orgId } });
      expect(conflicting.status).toBe(400);
      expect(conflicting.body.error.details).toEqual([{ field: 'org_id', message: 'org_id in the query and org_id in the body name different organizations' }]);
      expect((await suite.service.request('GET', `/api/v1/stores?org_id=${child.id}`, { token: partner.token })).body.data).toHaveLength(1);
    });
  });
});
