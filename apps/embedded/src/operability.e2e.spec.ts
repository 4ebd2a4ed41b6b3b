import { metricSample, sri } from '@pss/testkit';
import { EmbeddedHarness } from './testing/embedded-harness';
import { embeddedSuite } from './testing/embedded-suite';
import { linkTo, RESOURCE_PATHS } from '@pss/notifier/src/events/webhook-event';

/** What an operator sees: `/metrics`, the access log and request ids (docs/operations.md). */
describe('operability (HTTP, embedded)', () => {
  const suite = embeddedSuite({ env: { LOG_LEVEL: 'info' }, scopes: ['stores:read', 'stores:write'], organization: {} });
  let written: string[];
  let stdout: jest.SpyInstance;

  beforeEach(() => {
    written = [];
    stdout = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
  });
  afterEach(() => stdout.mockRestore());

  const logLines = (): Array<Record<string, unknown>> =>
    written.join('').split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
  const accessLines = () => logLines().filter((line) => line.context === 'http');
  const scrape = async () => (await suite.service.request('GET', '/metrics')).text;

  describe('GET /metrics', () => {
    it('answers the Prometheus text format without a token, with the process metrics', async () => {
      const answer = await suite.service.request('GET', '/metrics');
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(answer.text).toMatch(/^process_cpu_user_seconds_total /m);
      expect(answer.text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    });

    it('counts a request under its route template and status, never its path', async () => {
      const missing = '01900000-0000-7000-8000-00000000abcd';
      const series = 'pss_http_request_duration_seconds_count{method="GET",route="/api/v1/stores/:id",status="404"}';
      const before = metricSample(await scrape(), series);
      await suite.service.request('GET', `/api/v1/stores/${missing}`, { token: suite.token });
      const after = await scrape();
      expect(metricSample(after, series)).toBe(before + 1);
      expect(after).not.toContain(missing);
    });

    it('gives paths no route matched one label', async () => {
      await suite.service.request('GET', '/no/such/path/42');
      const text = await scrape();
      expect(metricSample(text, 'pss_http_request_duration_seconds_count{method="GET",route="unmatched",status="404"}')).toBeGreaterThan(0);
      expect(text).not.toContain('/no/such/path');
    });

    it('times event-store appends and shows where each projection and publisher stands', async () => {
      const before = metricSample(await scrape(), 'pss_event_store_append_duration_seconds_count{outcome="ok"}');
      await suite.newStore();
      const text = await scrape();
      expect(metricSample(text, 'pss_event_store_append_duration_seconds_count{outcome="ok"}')).toBeGreaterThan(before);
      const head = metricSample(text, 'pss_event_store_head_position');
      expect(head).toBeGreaterThan(0);
      expect(metricSample(text, 'pss_projection_position{projection="stores"}')).toBeLessThanOrEqual(head);
      expect(text).toMatch(/^pss_projection_lag\{projection="stores"\} \d+$/m);
      expect(text).toMatch(/^pss_publisher_position\{publisher="inventory"\} \d+$/m);
      expect(text).toMatch(/^pss_publisher_lag\{publisher="inventory"\} \d+$/m);
    });

    it('counts SDK batches and their observations, accepted and rejected', async () => {
      const store = await suite.newStore();
      const before = await scrape();
      const answer = await suite.service.reportSdk(store.sdk_key, [
        { kind: 'script', src: `https://www.${store.domain}/static/app.js`, hash: sri('app'), hash_source: 'sdk' },
        { kind: 'no-such-kind' },
      ]);
      expect(answer.status).toBe(202);
      const after = await scrape();
      const moved = (series: string) => metricSample(after, series) - metricSample(before, series);
      expect(moved('pss_sdk_batches_total{endpoint="events"}')).toBe(1);
      expect(moved('pss_sdk_observations_total{endpoint="events",outcome="accepted"}')).toBe(1);
      expect(moved('pss_sdk_observations_total{endpoint="events",outcome="rejected"}')).toBe(1);
      expect(moved('pss_http_request_duration_seconds_count{method="POST",route="/sdk/v1/events",status="202"}')).toBe(1);
    });
  });

  describe('access log', () => {
    it('writes one JSON line per request: method, route template, status, duration, organization, request id', async () => {
      const answer = await suite.service.request('GET', '/api/v1/stores?limit=5', { token: suite.token, headers: { 'x-request-id': 'trace-123' } });
      expect(answer.status).toBe(200);
      expect(accessLines()).toEqual([
        expect.objectContaining({
          level: 'info',
          message: 'GET /api/v1/stores 200',
          method: 'GET',
          route: '/api/v1/stores',
          status: 200,
          duration_ms: expect.any(Number),
          org_id: suite.orgId,
          request_id: 'trace-123',
        }),
      ]);
    });

    it('never holds the token, the query string, an SDK key or the body', async () => {
      const secretish = 'pss_live_do_not_log_me';
      await suite.service.request('POST', '/api/v1/stores', { token: suite.token, body: { domain: `${secretish}.example` } });
      await suite.service.request('GET', `/sdk/v1/config?key=${secretish}`);
      await suite.service.request('GET', `/api/v1/stores?cursor=${secretish}`, { token: suite.token });
      const lines = accessLines();
      expect(lines.map((line) => line.route)).toEqual(['/api/v1/stores', '/sdk/v1/config', '/api/v1/stores']);
      expect(lines.map((line) => line.org_id)).toEqual([suite.orgId, null, suite.orgId]);
      const everything = written.join('');
      expect(everything).not.toContain(secretish);
      expect(everything).not.toContain(suite.token);
      expect(everything).not.toContain(suite.token.slice(0, 32));
    });

    it('logs probes and scrapes at debug only', async () => {
      await suite.service.request('GET', '/health');
      await suite.service.request('GET', '/metrics');
      expect(accessLines()).toEqual([]);
    });

    it('uses standard level names everywhere', async () => {
      await suite.service.request('GET', '/api/v1/stores', { token: 'malformed' });
      expect(logLines().length).toBeGreaterThan(0);
      for (const line of logLines()) {
        expect(['fatal', 'error', 'warn', 'info', 'debug']).toContain(line.level);
        expect(typeof line.message).toBe('string');
      }
    });
  });

  describe('X-Request-Id', () => {
    it('echoes an acceptable id', async () => {
      const answer = await suite.service.request('GET', '/health', { headers: { 'x-request-id': 'a1B2.c3_d4:e5-f6' } });
      expect(answer.headers['x-request-id']).toBe('a1B2.c3_d4:e5-f6');
    });

    it('generates one when none is sent, also on errors', async () => {
      const answer = await suite.service.request('GET', '/api/v1/stores');
      expect(answer.status).toBe(401);
      expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      const other = await suite.service.request('GET', '/api/v1/stores');
      expect(other.headers['x-request-id']).not.toBe(answer.headers['x-request-id']);
    });

    it.each([
      ['too long', 'x'.repeat(129)],
      ['spaces', 'two words'],
      ['markup', '<script>'],
      ['a log-line break', 'abc\\ninjected'],
    ])('replaces an id with %s by a generated one', async (_label, offered) => {
      const answer = await suite.service.request('GET', '/health', { headers: { 'x-request-id': offered } });
      expect(answer.headers['x-request-id']).not.toBe(offered);
      expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });
  });
});

describe('METRICS_PORT (HTTP, embedded)', () => {
  it('takes /metrics off the API port (runService serves it on its own listener)', async () => {
    const service = await EmbeddedHarness.start({ env: { METRICS_PORT: '9464' } });
    try {
      expect(service.config.metricsPort).toBe(9464);
      expect((await service.request('GET', '/metrics')).status).toBe(404);
    } finally {
      await service.close();
    }
  });
});

describe('links in notifications (HTTP, embedded)', () => {
  const suite = embeddedSuite({ env: { PUBLIC_URL: 'https://pss.example' } });

  it.each(Object.keys(RESOURCE_PATHS) as Array<keyof typeof RESOURCE_PATHS>)('open the API resource: %s', (resource) => {
    const link = new URL(linkTo(suite.service.config.publicUrl, resource, 'ID'));
    expect(link.origin).toBe('https://pss.example');
    const route = link.pathname.replace(/\/ID$/, '/:id');
    expect(suite.service.app.getHttpAdapter().getInstance().hasRoute({ method: 'GET', url: route })).toBe(true);
  });

  it('of the owner invitation open its dashboard page; the links of older e-mails say what to do, naming nothing but a well-formed id', async () => {
    const org = await suite.service.createOrganization({ 'owner-email': 'owner@acme.example' });
    const link = new URL(org.invitation_link as string);
    expect(link.origin).toBe('https://pss.example');
    const invitation = await suite.service.request('GET', link.pathname);
    expect(invitation.status).toBe(200);
    expect(invitation.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(invitation.text).toContain('Acme Checkout');
    const page = await suite.service.request('GET', `/invite?org=${org.id}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(page.text).toContain(`You were named the owner of organization ${org.id}.`);
    expect(page.text).toContain('https://pss.example/dashboard');
    const forged = await suite.service.request('GET', '/invite?org=%3Cscript%3E');
    expect(forged.text).not.toContain('<script>');
  });

  it('of a webhook test event answer the channel itself', async () => {
    const { token } = await suite.service.tenant(['webhooks:manage']);
    const channel = (await suite.service.request('POST', '/api/v1/webhooks', { token, body: { url: 'https://hooks.example.com/pss' } })).body;
    const link = new URL(linkTo(suite.service.config.publicUrl, 'webhooks', channel.id));
    const opened = await suite.service.request('GET', link.pathname, { token });
    expect(opened.status).toBe(200);
    expect(opened.body.id).toBe(channel.id);
  });
});
