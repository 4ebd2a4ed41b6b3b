import { createServer, type AddressInfo } from 'node:net';
import { EVENT_STORE, type EventStore } from '@pss/event-store';
import { eventually, ManualClock } from '@pss/testkit';
import { NotificationsConsumer } from '@pss/notifier/src/delivery/notifications.consumer';
import { RetryCycle } from '@pss/notifier/src/delivery/retry-cycle';
import { signedWith } from '@pss/notifier/src/testing/signature-check';
import { webhookSuite } from '@pss/notifier/src/testing/webhook-harness';

const SCOPES = ['webhooks:manage', 'stores:write'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('webhooks (HTTP, embedded)', () => {
  const clock = new ManualClock('2026-05-04T12:00:00.000Z');
  const suite = webhookSuite({ clock, scopes: SCOPES, organization: {} });
  let counter = 0;

  const create = (body: Record<string, unknown>, as = suite.token, headers: Record<string, string> = {}) =>
    suite.service.request('POST', '/api/v1/webhooks', { token: as, body: { url: suite.receiver.url(), ...body }, headers });
  const get = (id: string, as = suite.token) => suite.service.request('GET', `/api/v1/webhooks/${id}`, { token: as });
  const patch = (id: string, body: unknown, as = suite.token) => suite.service.request('PATCH', `/api/v1/webhooks/${id}`, { token: as, body });
  const test = (id: string, as = suite.token) => suite.service.request('POST', `/api/v1/webhooks/${id}/test`, { token: as });
  const fieldsOf = (answer: { body: any }) => answer.body.error.details.map((detail: { field: string }) => detail.field);
  const newStore = async (as = suite.token) =>
    (await suite.service.request('POST', '/api/v1/stores', { token: as, body: { domain: `hooks${++counter}-${Date.now().toString(36)}.com.br` } })).body;

  describe('POST /webhooks', () => {
    it('creates an organization-wide JSON channel with the defaults, and shows a generated secret once', async () => {
      const answer = await create({});
      expect(answer.status).toBe(201);
      expect(answer.body).toEqual({
        id: expect.stringMatching(UUID),
        org_id: suite.orgId,
        store_id: null,
        type: 'webhook',
        name: `127.0.0.1:${suite.receiver.port}`,
        url: suite.receiver.url(),
        format: 'json',
        has_secret: true,
        events: null,
        min_severity: 'high',
        active: true,
        last_used_at: null,
        created_at: clock.now().toISOString(),
        updated_at: clock.now().toISOString(),
        secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/),
        secret_generated: true,
      });
      const { secret, secret_generated: _generated, ...resource } = answer.body;
      expect((await get(answer.body.id)).body).toEqual(resource);
      const listed = (await suite.service.request('GET', '/api/v1/webhooks', { token: suite.token })).body.data;
      expect(listed).toContainEqual(resource);
      expect(JSON.stringify(listed)).not.toContain(secret);
      // Stored sealed: neither the events nor the read model hold it.
      const events = await suite.service.app.get<EventStore>(EVENT_STORE).readStream(`channel-${answer.body.id}`);
      expect(JSON.stringify(events)).not.toContain(secret);
      expect(JSON.stringify(events)).not.toContain(secret.slice('whsec_'.length));
    });

    it('takes store_id null as a Webhook shows it: organization-wide', async () => {
      const answer = await create({ store_id: null, events: null });
      expect([answer.status, answer.body.store_id, answer.body.events]).toEqual([201, null, null]);
    });

    it.each([
      ['json', 'webhook'],
      ['slack', 'slack'],
      ['teams', 'teams'],
    ])('gives format %s the type %s, and takes the given settings', async (format, type) => {
      const secret = 'a-secret-of-16ch';
      const store = await newStore();
      const answer = await create({ format, secret, name: ' Ops ', store_id: store.id.toUpperCase(), events: ['alert.created', 'alert.created', 'script.blocked'], min_severity: 'critical', active: false });
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({ type, format, secret, secret_generated: false, name: ' Ops ', store_id: store.id, events: ['alert.created', 'script.blocked'], min_severity: 'critical', active: false });
    });

    it.each([
      ['a missing url', { url: undefined }, 'url'],
      ['an http url', { url: 'http://hooks.example.com/x' }, 'url'],
      ['a url that is not one', { url: 'hooks.example.com' }, 'url'],
      ['a url over 2048 characters', { url: `https://hooks.example.com/${'a'.repeat(2030)}` }, 'url'],
      ['a secret of 15 characters', { secret: 'x'.repeat(15) }, 'secret'],
      ['a secret of 257 characters', { secret: 'x'.repeat(257) }, 'secret'],
      ['a name over 120 characters', { name: 'x'.repeat(121) }, 'name'],
      ['an empty name', { name: '' }, 'name'],
      ['an unknown format', { format: 'xml' }, 'format'],
      ['an unknown event', { events: ['alert.created', 'store.created'] }, 'events'],
      ['events that are not a list', { events: 'alert.created' }, 'events'],
      ['an unknown min_severity', { min_severity: 'urgent' }, 'min_severity'],
      ['an active that is not a boolean', { active: 'yes' }, 'active'],
      ['a store_id that is not a UUID', { store_id: 'store-1' }, 'store_id'],
      ['a null format', { format: null }, 'format'],
      ['an unknown field', { type: 'slack' }, 'type'],
    ])('answers 400 validation_error to %s', async (_case, body, field) => {
      const answer = await create(body);
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('validation_error');
      expect(fieldsOf(answer)).toEqual([field]);
    });

    it('gives one detail per field, the rule the DTO declares first, however many rules the value breaks', async () => {
      expect((await create({ name: null })).body.error.details).toEqual([{ field: 'name', message: 'name must be a string' }]);
      const listed = await suite.service.request('GET', '/api/v1/webhooks?limit=abc', { token: (await suite.service.tenant(['webhooks:manage'])).token });
      expect(listed.body.error.details).toEqual([{ field: 'limit', message: 'limit must be an integer from 1 to 100' }]);
    });

    it.each([
      ['a user and password', 'https://user:pw@hooks.example.com/x'],
      ['a user name alone', 'https://user@hooks.example.com/x'],
    ])('refuses a url with %s, which every read of the channel would show', async (_case, url) => {
      const answer = await create({ url });
      expect(answer.status).toBe(400);
      expect(answer.body.error.details).toEqual([{ field: 'url', message: 'url must not carry a user name or password; deliveries are authenticated by their signature' }]);
    });

    it("answers 404 for a store that is not one of the organization's", async () => {
      const other = await suite.service.tenant(SCOPES);
      const theirs = await newStore(other.token);
      expect((await create({ store_id: theirs.id })).status).toBe(404);
      expect((await create({ store_id: '0190c0de-0000-7000-8000-000000000000' })).body.error).toMatchObject({ code: 'not_found', message: 'Store not found' });
    });

    it('replays the first answer, secret included, to a retry with the same Idempotency-Key', async () => {
      const first = await create({ name: 'Once' }, suite.token, { 'idempotency-key': 'webhook-once' });
      const again = await create({ name: 'Once' }, suite.token, { 'idempotency-key': 'webhook-once' });
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect((await create({ name: 'Twice' }, suite.token, { 'idempotency-key': 'webhook-once' })).status).toBe(422);
    });
  });

  describe('GET /webhooks', () => {
    it("pages the organization's channels newest first, and nobody else's", async () => {
      const tenant = await suite.service.tenant(['webhooks:manage']);
      const ids: string[] = [];
      for (const name of ['first', 'second', 'third']) {
        clock.advance(1000);
        ids.push((await create({ name }, tenant.token)).body.id);
      }
      const first = await suite.service.request('GET', '/api/v1/webhooks?limit=2', { token: tenant.token });
      const second = await suite.service.request('GET', `/api/v1/webhooks?limit=2&cursor=${first.body.next_cursor}`, { token: tenant.token });
      expect([...first.body.data, ...second.body.data].map((channel: { id: string }) => channel.id)).toEqual(ids.reverse());
      expect(second.body.next_cursor).toBeNull();
      expect((await suite.service.request('GET', '/api/v1/webhooks?limit=101', { token: tenant.token })).status).toBe(400);
    });
  });

  describe('PATCH and DELETE /webhooks/{id}', () => {
    it('changes url, name, events, min_severity and active, never the secret it shows', async () => {
      const { id } = (await create({ name: 'Before' })).body;
      clock.advance(60_000);
      const answer = await patch(id, { url: suite.receiver.url('/moved'), name: 'After', events: ['script.detected', 'script.detected'], min_severity: 'medium', active: false, secret: 'a-rotated-secret-1' });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ id, url: suite.receiver.url('/moved'), name: 'After', events: ['script.detected'], min_severity: 'medium', active: false, has_secret: true, updated_at: clock.now().toISOString() });
      expect(answer.body).not.toHaveProperty('secret');
      expect(JSON.stringify(answer.body)).not.toContain('a-rotated-secret-1');
      expect((await patch(id, { events: null })).body.events).toBeNull();
      expect((await get(id)).body).toMatchObject({ name: 'After', events: null, active: false });
    });

    it('refuses to change scope, type or format, and validates like POST', async () => {
      const { id } = (await create({})).body;
      for (const field of ['store_id', 'format', 'type']) expect(fieldsOf(await patch(id, { [field]: 'slack' }))).toEqual([field]);
      expect(fieldsOf(await patch(id, { url: 'http://insecure.example' }))).toEqual(['url']);
      expect(fieldsOf(await patch(id, { secret: 'short' }))).toEqual(['secret']);
      expect((await patch('not-a-uuid', { name: 'x' })).status).toBe(400);
    });

    it('deletes a channel: 200 {id, deleted: true}, then it is gone', async () => {
      const { id } = (await create({})).body;
      const answer = await suite.call('DELETE', `/webhooks/${id}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ id, deleted: true });
      expect((await get(id)).status).toBe(404);
      expect((await patch(id, { name: 'x' })).status).toBe(404);
      expect((await suite.call('DELETE', `/webhooks/${id}`)).status).toBe(404);
      expect((await test(id)).status).toBe(404);
    });
  });

  describe('POST /webhooks/{id}/test', () => {
    it('sends one signed test event, even to an inactive channel, and answers 200 {id, delivered, error}', async () => {
      const created = (await create({ url: suite.receiver.url('/test-ok'), active: false, events: ['report.ready'] })).body;
      const answer = await test(created.id);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ id: created.id, delivered: true, error: null });
      const [request] = await suite.receiver.waitFor(1, '/test-ok');
      expect(signedWith(request, created.secret)).toBe(true);
      expect(request.headers).toMatchObject({ 'x-service-event': 'test', 'user-agent': 'Service-Webhooks/1.0', 'x-service-delivery': expect.stringMatching(UUID) });
      expect(request.json).toMatchObject({ id: expect.stringMatching(/^evt_[0-9a-f]{32}$/), type: 'test', data: { channel_id: created.id } });
      expect((await get(created.id)).body.last_used_at).toBe(clock.now().toISOString());
      const [entry] = (await suite.service.ops('deliveries.list', { org: suite.orgId, channel: created.id })).data;
      expect(entry).toMatchObject({ event_type: 'test', status: 'delivered', attempts: 1 });
    });

    it('tells why a test failed: the status and start of the body, a timeout, a network error, a refused address', async () => {
      const failing = (await create({ url: suite.receiver.url('/test-500') })).body;
      suite.receiver.answerWith({ status: 500, body: '{"error":"database down"}' });
      expect((await test(failing.id)).body).toEqual({ id: failing.id, delivered: false, error: 'http_500: {"error":"database down"}' });
      suite.receiver.answerWith('hang');
      expect((await test(failing.id)).body).toMatchObject({ delivered: false, error: 'timeout' });
      suite.receiver.answerWith({ status: 200 });

      const port = await closedPort();
      const unreachable = (await create({ url: `https://127.0.0.1:${port}/x` })).body;
      expect((await test(unreachable.id)).body).toMatchObject({ delivered: false, error: 'connection_refused' });
      // The test environment allows 127.0.0.1 and localhost by name (WEBHOOK_ALLOW_HOSTS); other loopback names are refused.
      for (const url of [`https://[::1]:${suite.receiver.port}/x`, `https://[::ffff:127.0.0.1]:${suite.receiver.port}/x`, 'https://169.254.169.254/latest/meta-data']) {
        const refused = (await create({ url })).body;
        expect((await test(refused.id)).body).toEqual({ id: refused.id, delivered: false, error: 'blocked_address' });
      }
      expect(suite.receiver.received.filter((request) => request.path === '/x')).toEqual([]);
    });
  });

  it('applies a rotated secret to a pending retry', async () => {
    const created = (await create({ url: suite.receiver.url('/rotated'), min_severity: 'info' })).body;
    suite.receiver.answerWith({ status: 503 });
    await suite.service.app.get(NotificationsConsumer).notify({
      id: 'evt_0190c0de00007000800000000000aaaa',
      type: 'alerts.alert.created',
      version: 1,
      source: 'alerts',
      org_id: suite.orgId,
      store_id: 'store-1',
      occurred_at: clock.now().toISOString(),
      correlation_id: null,
      position: 1,
      data: { id: '0190c0de-0000-7000-8000-00000000aaaa', org_id: suite.orgId, store_id: 'store-1', type: 'CSP_VIOLATION', severity: 'medium', status: 'open' },
    });
    const [first] = await suite.receiver.waitFor(1, '/rotated');
    expect(signedWith(first, created.secret)).toBe(true);
    // Its failure is recorded at the clock's time: wait for it before moving the clock.
    await eventually(async () => (await suite.service.ops('deliveries.list', { org: suite.orgId, channel: created.id })).data, ([entry]) => entry?.attempts === 1);

    const rotated = 'whsec_rotated-secret-for-the-retry';
    expect((await patch(created.id, { secret: rotated })).status).toBe(200);
    suite.receiver.answerWith({ status: 200 });
    clock.advance(5 * 60_000);
    await suite.service.app.get(RetryCycle).run();
    const [, retry] = await suite.receiver.waitFor(2, '/rotated');
    expect(signedWith(retry, rotated)).toBe(true);
    expect(signedWith(retry, created.secret)).toBe(false);
    expect(retry.headers['x-service-delivery']).toBe(first.headers['x-service-delivery']);
  });

  it('needs webhooks:manage on every operation, and keeps organizations apart', async () => {
    const { id } = (await create({})).body;
    const reader = await suite.service.tenant(['stores:read', 'alerts:read']);
    const stranger = await suite.service.tenant(['webhooks:manage']);
    const calls = (as: string) => [
      suite.service.request('GET', '/api/v1/webhooks', { token: as }),
      suite.service.request('POST', '/api/v1/webhooks', { token: as, body: { url: suite.receiver.url() } }),
      get(id, as),
      patch(id, { name: 'x' }, as),
      suite.service.request('DELETE', `/api/v1/webhooks/${id}`, { token: as }),
      test(id, as),
    ];
    expect((await Promise.all(calls(reader.token))).map((answer) => answer.status)).toEqual([403, 403, 403, 403, 403, 403]);
    const [list, , ...others] = await Promise.all(calls(stranger.token));
    expect(list.body.data.map((channel: { id: string }) => channel.id)).not.toContain(id);
    expect(others.map((answer) => answer.status)).toEqual([404, 404, 404, 404]);
    expect((await get(id)).status).toBe(200);
  });

  it("lets a partner manage a child organization's channels with org_id", async () => {
    const partner = await suite.service.tenant(['webhooks:manage', 'orgs:manage']);
    const child = (await suite.service.request('POST', '/api/v1/organizations', { token: partner.token, body: { name: 'Child Shop', owner_email: 'child@acme.example' } })).body;
    const created = await suite.service.request('POST', `/api/v1/webhooks?org_id=${child.id}`, { token: partner.token, body: { url: suite.receiver.url() } });
    expect(created.body).toMatchObject({ org_id: child.id });
    const inBody = await create({ org_id: child.id }, partner.token);
    expect(inBody.body).toMatchObject({ org_id: child.id });
    const ids = (query: string) => suite.service.request('GET', `/api/v1/webhooks${query}`, { token: partner.token }).then((answer) => answer.body.data.map((channel: { id: string }) => channel.id));
    expect(await ids(`?org_id=${child.id}`)).toEqual([inBody.body.id, created.body.id]);
    expect(await ids('')).toEqual([]);
    expect((await get(created.body.id, partner.token)).status).toBe(404);
  });

  it("never shows the dashboard's e-mail channels", async () => {
    const store = await newStore();
    const ofStore = async () => ((await suite.service.ops('channels.list', { org: suite.orgId })).data as Array<{ id: string; type: string; store_id: string }>).filter((channel) => channel.store_id === store.id);
    const [email] = await eventually(ofStore, (channels) => channels.length > 0);
    expect(email).toMatchObject({ type: 'email', url: null, format: null, has_secret: false, recipients: ['owner@acme.example'], min_severity: 'high', active: true });
    const listed = (await suite.service.request('GET', '/api/v1/webhooks?limit=100', { token: suite.token })).body.data;
    expect(listed.map((channel: { type: string }) => channel.type)).not.toContain('email');
    expect((await get(email.id)).status).toBe(404);
    expect((await patch(email.id, { active: false })).status).toBe(404);
    expect((await test(email.id)).status).toBe(404);
  });
});

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
