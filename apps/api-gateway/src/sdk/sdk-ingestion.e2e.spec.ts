import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { DAY_MS } from '@pss/kernel';
import { ProjectionRunner } from '@pss/projections';
import { eventually, ManualClock, sri } from '@pss/testkit';
import { urlTag } from '@pss/sdk-contract';
import { SightingsFlusher } from './intake/sightings-flusher';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';

const SCOPES = ['stores:read', 'stores:write', 'scripts:read', 'scripts:review', 'rules:write', 'alerts:read'];

/** What a real checkout page carries. */
const checkoutScripts = (domain: string) => [
  { kind: 'script', src: `https://www.${domain}/static/app.3f9a.js`, hash: sri('app bundle v1'), hash_source: 'sdk', size_bytes: 48213 },
  { kind: 'script', src: 'https://sdk.mercadopago.com/js/v2', hash: sri('mercado pago v2'), hash_source: 'sdk', integrity_attr: false },
  { kind: 'script', src: 'https://www.googletagmanager.com/gtm.js?id=GTM-ABC123', hash: sri('gtm'), gtm_container: 'GTM-ABC123' },
  { kind: 'script', inline: true, hash: sri('window.dataLayer = [];'), hash_source: 'sdk', size_bytes: 22 },
  { kind: 'script', src: 'https://cdn.widgets-unknown.io/w.js', hash: sri('widget') },
];

describe('SDK ingestion and the script inventory (HTTP, embedded)', () => {
  const clock = new ManualClock('2026-05-04T15:00:00.000Z');
  const suite = embeddedSuite({ clock, scopes: SCOPES });

  const send = (key: string, observations: unknown[], extra: Record<string, unknown> = {}) => suite.service.reportSdk(key, observations, extra);
  const scripts = async (storeId: string, query = '') =>
    (await suite.service.request('GET', `/api/v1/scripts?store_id=${storeId}${query}`, { token: suite.token })).body.data as any[];
  const bySrc = (list: any[], fragment: string) => list.find((script) => script.src.includes(fragment));

  it('inventories a real checkout once per script, rightly classified', async () => {
    const store = await suite.newStore();
    const answer = await send(store.sdk_key, checkoutScripts(store.domain));
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ accepted: 5, rejected: 0, rejections: [] });
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    for (let i = 0; i < 3; i += 1) await send(store.sdk_key, checkoutScripts(store.domain));

    const list = await scripts(store.id);
    expect(list).toHaveLength(5);
    expect(bySrc(list, 'static/app')).toMatchObject({ type: 'first_party', status: 'needs_review', integrity_status: 'monitored', hash_source: 'sdk', size_bytes: 48213 });
    expect(bySrc(list, 'mercadopago')).toMatchObject({ type: 'known_third', vendor_id: 'mercado_pago', category: 'payment' });
    expect(bySrc(list, 'googletagmanager')).toMatchObject({ type: 'known_third', category: 'tag_manager', gtm_container: 'GTM-ABC123' });
    expect(bySrc(list, 'inline:')).toMatchObject({ type: 'first_party', current_hash: sri('window.dataLayer = [];') });
    expect(bySrc(list, 'widgets-unknown')).toMatchObject({ type: 'unknown', vendor_id: null, category: null });
    for (const script of list) expect(script.reviews).toBeUndefined();
  });

  it('counts repeated sightings and records them at the flush, with no event each', async () => {
    const store = await suite.newStore();
    await send(store.sdk_key, checkoutScripts(store.domain));
    clock.advance(60_000);
    await send(store.sdk_key, checkoutScripts(store.domain), { session_id: 'another-session' });
    await send(store.sdk_key, checkoutScripts(store.domain), { session_id: 'another-session' });
    await suite.service.app.get(SightingsFlusher).run();
    expect(await suite.service.app.get(ProjectionRunner).catchUp()).toBe(true);

    const app = bySrc(await scripts(store.id), 'static/app');
    expect(app.sightings).toBe(3);
    expect(app.sessions_count).toBe(2);
    expect(app.last_seen_at).toBe(clock.now().toISOString());
    expect(Date.parse(app.last_seen_at)).toBeGreaterThan(Date.parse(app.first_seen_at));
    const status = (await suite.service.request('GET', `/api/v1/stores/${store.id}/status`, { token: suite.token })).body;
    expect(status.sdk).toMatchObject({ installed: true, last_event_at: clock.now().toISOString(), events_total: 15 });
    expect(status.scripts).toMatchObject({ total: 5, needs_review: 5 });
  });

  it('authorizes a script with a justification, and shows mismatch when its content changes', async () => {
    const store = await suite.newStore();
    await send(store.sdk_key, checkoutScripts(store.domain));
    const target = bySrc(await scripts(store.id), 'mercadopago');

    const authorized = await suite.service.request('POST', `/api/v1/scripts/${target.id}/authorize`, {
      token: suite.token,
      body: { justification: 'Mercado Pago checkout SDK: required to take Pix and card payments', expires_days: 90 },
    });
    expect(authorized.status).toBe(200);
    expect(authorized.body).toMatchObject({
      status: 'authorized',
      integrity_status: 'match',
      authorized_hash: sri('mercado pago v2'),
      authorization_method: 'api',
      authorized_by: `api:${suite.prefix}`,
      justification: 'Mercado Pago checkout SDK: required to take Pix and card payments',
      reviewed_at: clock.now().toISOString(),
      expires_at: new Date(clock.now().getTime() + 90 * DAY_MS).toISOString(),
    });

    clock.advance(1000);
    const changed = [{ kind: 'script', src: 'https://sdk.mercadopago.com/js/v2', hash: sri('mercado pago v2 TAMPERED') }];
    for (let i = 0; i < 3; i += 1) await send(store.sdk_key, changed);
    const after = (await suite.service.request('GET', `/api/v1/scripts/${target.id}`, { token: suite.token })).body;
    expect(after).toMatchObject({
      status: 'authorized',
      integrity_status: 'mismatch',
      current_hash: sri('mercado pago v2 TAMPERED'),
      authorized_hash: sri('mercado pago v2'),
      last_hash_change_at: clock.now().toISOString(),
    });
    expect(after.reviews).toEqual([expect.objectContaining({ action: 'authorize', method: 'api', by: `api:${suite.prefix}` })]);
    const mismatched = await scripts(store.id, '&integrity_status=mismatch');
    expect(mismatched.map((s) => s.id)).toEqual([target.id]);
  });

  it('requires a justification to authorize, and refuses both expiry forms at once', async () => {
    const store = await suite.newStore();
    await send(store.sdk_key, checkoutScripts(store.domain));
    const target = (await scripts(store.id))[0];
    expect((await suite.service.request('POST', `/api/v1/scripts/${target.id}/authorize`, { token: suite.token, body: {} })).status).toBe(400);
    expect((await suite.service.request('POST', `/api/v1/scripts/${target.id}/authorize`, { token: suite.token, body: { justification: 'x'.repeat(2001) } })).status).toBe(400);
    const both = await suite.service.request('POST', `/api/v1/scripts/${target.id}/authorize`, {
      token: suite.token,
      body: { justification: 'ok', expires_days: 1, expires_at: '2030-01-01T00:00:00.000Z' },
    });
    expect(both.status).toBe(400);
    const refused = async (body: Record<string, unknown>) => {
      const answer = await suite.service.request('POST', `/api/v1/scripts/${target.id}/authorize`, { token: suite.token, body });
      return [answer.status, answer.body.error?.details?.[0]];
    };
    expect(await refused({ justification: '   ' })).toEqual([400, { field: 'justification', message: expect.stringMatching(/^justification is required/) }]);
    const message = 'expires_at must be in the future, at most 3650 days ahead';
    expect(await refused({ justification: 'ok', expires_at: '2026-05-04T14:00:00.000Z' })).toEqual([400, { field: 'expires_at', message }]);
    expect(await refused({ justification: 'ok', expires_at: '2099-01-01T00:00:00.000Z' })).toEqual([400, { field: 'expires_at', message }]);
    expect((await scripts(store.id)).find((script) => script.id === target.id).status).toBe('needs_review');
  });

  it('blocks external scripts by domain and inline ones by hash; the rules reach the SDK config', async () => {
    const store = await suite.newStore();
    await send(store.sdk_key, checkoutScripts(store.domain));
    const list = await scripts(store.id);
    const widget = bySrc(list, 'widgets-unknown');
    const inline = bySrc(list, 'inline:');

    const blocked = await suite.service.request('POST', `/api/v1/scripts/${widget.id}/block`, { token: suite.token, body: { justification: 'Not ours' } });
    expect(blocked.status).toBe(200);
    expect(blocked.body).toMatchObject({ status: 'blocked', integrity_status: 'blocked', justification: 'Not ours' });
    expect(blocked.body.rule).toMatchObject({ store_id: store.id, type: 'block', target: 'domain', value: 'cdn.widgets-unknown.io', active: true });
    const inlineBlocked = await suite.service.request('POST', `/api/v1/scripts/${inline.id}/block`, { token: suite.token, body: {} });
    expect(inlineBlocked.body.rule).toMatchObject({ target: 'hash', value: inline.current_hash });

    const config = await suite.service.request('GET', `/sdk/v1/config?key=${store.sdk_key}`);
    expect(config.status).toBe(200);
    expect(config.body.rules.block.map((r: { value: string }) => r.value).sort()).toEqual([inline.current_hash, 'cdn.widgets-unknown.io'].sort());
    const rules = await suite.service.request('GET', `/api/v1/rules?store_id=${store.id}`, { token: suite.token });
    expect(rules.body.data).toHaveLength(2);
  });

  it('lets an authorized blocked script run again: an allow rule on its URL, or its hash rule lifted; a new block undoes it', async () => {
    const store = await suite.newStore({ mode: 'block' });
    await send(store.sdk_key, [{ kind: 'script', src: 'https://cdn.widgets-unknown.io/w.js?visitor=42' }, ...checkoutScripts(store.domain)]);
    const list = await scripts(store.id);
    const [widget, inline] = [bySrc(list, 'widgets-unknown'), bySrc(list, 'inline:')];
    expect(widget.src).toBe('https://cdn.widgets-unknown.io/w.js?visitor=42');
    const domainRule = (await suite.service.request('POST', `/api/v1/scripts/${widget.id}/block`, { token: suite.token, body: {} })).body.rule;
    const hashRule = (await suite.service.request('POST', `/api/v1/scripts/${inline.id}/block`, { token: suite.token, body: {} })).body.rule;
    const authorize = (id: string) => suite.service.request('POST', `/api/v1/scripts/${id}/authorize`, { token: suite.token, body: { justification: 'Reviewed: needed after all' } });
    const pageRules = async () => (await suite.service.request('GET', `/sdk/v1/config?key=${store.sdk_key}`)).body.rules;

    expect((await authorize(widget.id)).body).toMatchObject({ status: 'authorized' });
    expect((await authorize(inline.id)).body).toMatchObject({ status: 'authorized' });
    expect(await pageRules()).toEqual({
      block: [{ id: domainRule.id, target: 'domain', value: 'cdn.widgets-unknown.io' }],
      allow: [{ id: expect.any(String), target: 'url', value: 'https://cdn.widgets-unknown.io/w.js' }],
    });
    const rules = (await suite.service.request('GET', `/api/v1/rules?store_id=${store.id}`, { token: suite.token })).body.data;
    expect(rules.find((rule: { id: string }) => rule.id === hashRule.id)).toMatchObject({ active: false });

    await suite.service.request('POST', `/api/v1/scripts/${widget.id}/block`, { token: suite.token, body: {} });
    await suite.service.request('POST', `/api/v1/scripts/${inline.id}/block`, { token: suite.token, body: {} });
    const blockedAgain = await pageRules();
    expect(blockedAgain.allow).toEqual([]);
    expect(blockedAgain.block.map((rule: { id: string }) => rule.id).sort()).toEqual([domainRule.id, hashRule.id].sort());
  });

  it('blocks a script served from an IP address, localhost or a name with an underscore by that host, as the browser writes it', async () => {
    const store = await suite.newStore();
    const hosts = ['https://203.0.113.7/x.js', 'http://localhost:8080/y.js', 'https://[2001:db8::1]/z.js', 'https://my_cdn.example.net/w.js'];
    await send(store.sdk_key, hosts.map((src) => ({ kind: 'script', src })));
    const list = await scripts(store.id);
    const values: string[] = [];
    for (const src of hosts) {
      const blocked = await suite.service.request('POST', `/api/v1/scripts/${bySrc(list, src).id}/block`, { token: suite.token, body: {} });
      expect([src, blocked.status, blocked.body.status]).toEqual([src, 200, 'blocked']);
      values.push(blocked.body.rule.value);
    }
    expect(values).toEqual(['203.0.113.7', 'localhost', '[2001:db8::1]', 'my_cdn.example.net']);
    const config = await suite.service.request('GET', `/sdk/v1/config?key=${store.sdk_key}`);
    expect(config.body.rules.block.map((rule: { value: string }) => rule.value).sort()).toEqual([...values].sort());
  });

  it('serves the SDK config with authorized hashes, paused in developer mode, and an ETag', async () => {
    const store = await suite.newStore({ developer_mode: true, mode: 'block' });
    await send(store.sdk_key, checkoutScripts(store.domain));
    const app = bySrc(await scripts(store.id), 'static/app');
    await suite.service.request('POST', `/api/v1/scripts/${app.id}/authorize`, { token: suite.token, body: { justification: 'Our bundle' } });

    const config = await suite.service.request('GET', `/sdk/v1/config?key=${store.sdk_key}`);
    expect(config.body).toMatchObject({ store_id: store.id, paused: true, config: { mode: 'block', developer_mode: true }, authorized_hashes: [sri('app bundle v1')] });
    expect(config.headers.etag).toBeDefined();
    expect(config.headers['access-control-allow-origin']).toBe('*');
    const cached = await suite.service.request('GET', `/sdk/v1/config?key=${store.sdk_key}`, { headers: { 'if-none-match': String(config.headers.etag) } });
    expect(cached.status).toBe(304);
  });

  it('accepts a rotated key for 24 hours, then answers 401; a suspended store is 403', async () => {
    const store = await suite.newStore();
    await suite.service.request('POST', `/api/v1/stores/${store.id}/rotate-key`, { token: suite.token });
    expect((await suite.service.request('GET', `/sdk/v1/config?key=${store.sdk_key}`)).status).toBe(200);
    clock.advance(DAY_MS);
    expect((await suite.service.request('GET', `/sdk/v1/config?key=${store.sdk_key}`)).status).toBe(401);
    const current = (await suite.service.request('GET', `/api/v1/stores/${store.id}`, { token: suite.token })).body.sdk_key;
    expect((await send(current, checkoutScripts(store.domain))).status).toBe(202);
    await suite.service.request('DELETE', `/api/v1/stores/${store.id}`, { token: suite.token });
    expect((await send(current, checkoutScripts(store.domain))).status).toBe(403);
  });

  it('rejects bad items one by one and never the batch; bad envelopes, unknown keys and oversize bodies get clear answers', async () => {
    const store = await suite.newStore();
    const mixed = await send(store.sdk_key, [
      ...checkoutScripts(store.domain).slice(0, 2),
      { kind: 'script', src: 'javascript:alert(1)' },
      { kind: 'script', src: 'https://x.io/a.js', hash: 'md5-abc' },
      { kind: 'teleport' },
      'not even an object',
      { kind: 'payment_recipient', method: 'pix', key_hash: 'short' },
    ]);
    expect(mixed.status).toBe(202);
    expect(mixed.body).toEqual({
      accepted: 2,
      rejected: 5,
      rejections: [
        { index: 2, reason: 'src must be an http(s) URL' },
        { index: 3, reason: 'hash must be an SRI hash such as sha384-…' },
        { index: 4, reason: 'unknown kind' },
        { index: 5, reason: 'not an object' },
        { index: 6, reason: 'method and key_hash (64 hex characters) are required' },
      ],
    });
    expect(await scripts(store.id)).toHaveLength(2);

    const malformed = await suite.service.request('POST', `/sdk/v1/events?key=${store.sdk_key}`, { body: '{"page_url":' });
    expect(malformed.status).toBe(400);
    const envelope = await send(store.sdk_key, [], { page_url: 'not a url', session_id: '' });
    expect(envelope.status).toBe(400);
    expect(envelope.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['page_url', 'session_id']);
    const unknownKey = await send(`pk_live_${'0'.repeat(32)}`, []);
    // every 401 of the service names the API's realm, the SDK's too
    expect([unknownKey.status, unknownKey.headers['www-authenticate']]).toEqual([401, 'Bearer realm="Payment Page Script Security API"']);
    expect((await send('pss_tok_nope', [])).status).toBe(401);
    expect((await suite.service.request('GET', '/sdk/v1/config?key=pss_tok_nope')).headers['www-authenticate']).toMatch(/^Bearer realm=/);
    const huge = await send(store.sdk_key, [{ kind: 'csp_violation', directive: 'script-src', blocked_uri: 'x'.repeat(300 * 1024) }]);
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('payload_too_large');
    expect(huge.headers['access-control-allow-origin']).toBe('*'); // refused before the route, still readable by the page
  });

  it('rejects only the observation that carries a prototype key, whatever the content type', async () => {
    const store = await suite.newStore();
    const body = (src: string) =>
      `{"page_url":"https://${store.domain}/checkout","session_id":"s","sdk_version":"1.0.0","observations":[` +
      `{"kind":"script","src":"${src}"},{"kind":"script","src":"https://evil.example/x.js","__proto__":{"polluted":true}},` +
      `{"kind":"headers","headers":{"constructor":"x"}}]}`;
    for (const [type, src] of [['application/json', 'https://cdn.a.io/a.js'], ['text/plain;charset=UTF-8', 'https://cdn.b.io/b.js']]) {
      const answer = await suite.service.request('POST', `/sdk/v1/events?key=${store.sdk_key}`, { body: body(src), headers: { 'content-type': type } });
      expect(answer.status).toBe(202);
      expect(answer.body).toMatchObject({ accepted: 1, rejected: 2, rejections: [{ index: 1, reason: expect.stringContaining('prototype keys') }, { index: 2 }] });
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await scripts(store.id)).map((s) => s.src).sort()).toEqual(['https://cdn.a.io/a.js', 'https://cdn.b.io/b.js']);
  });

  it('lists at most 20 rejection reasons, and counts them all', async () => {
    const store = await suite.newStore();
    const answer = await send(store.sdk_key, Array.from({ length: 30 }, () => ({ kind: 'nope' })));
    expect(answer.body.rejected).toBe(30);
    expect(answer.body.rejections).toHaveLength(20);
  });

  it('takes an empty batch as the heartbeat of a paused SDK: counted as usage, never as a sign it is installed', async () => {
    const store = await suite.newStore({ developer_mode: true });
    expect((await send(store.sdk_key, [])).body).toEqual({ accepted: 0, rejected: 0, rejections: [] });
    await suite.service.app.get(SightingsFlusher).run();
    const status = await eventually(
      async () => (await suite.service.request('GET', `/api/v1/stores/${store.id}/status`, { token: suite.token })).body,
      (body) => body.sdk.events_total === 0 && body.sdk.paused === true,
    );
    // Anyone holding the public key can send one (docs/decisions.md, issue 29).
    expect(status.sdk).toMatchObject({ installed: false, paused: true, last_event_at: null });
  });

  it('keeps the page of a batch without its query and fragment, which may carry personal data', async () => {
    const store = await suite.newStore();
    const page_url = `https://${store.domain}/pay?email=ana%40example.com&card=4111111111111111#step-2`;
    await send(store.sdk_key, [{ kind: 'csp_violation', directive: 'script-src', blocked_uri: 'https://cdn.query.example/s.js' }], { page_url });
    const alerts = await eventually(
      async () => (await suite.service.request('GET', `/api/v1/alerts?store_id=${store.id}`, { token: suite.token })).body.data as any[],
      (list) => list.length === 1,
    );
    expect(alerts[0].details.page_url).toBe(`https://${store.domain}/pay`);
  });

  it('turns report-uri and report-to CSP reports into violations and script sightings, one rejection per bad report', async () => {
    const store = await suite.newStore();
    const legacy = {
      'csp-report': {
        'document-uri': `https://www.${store.domain}/checkout?x=1`,
        'violated-directive': 'script-src-elem',
        'effective-directive': 'script-src-elem',
        'blocked-uri': 'https://cdn.skimmer.example/s.js',
        'source-file': `https://www.${store.domain}/checkout`,
      },
    };
    const first = await suite.service.request('POST', `/sdk/v1/csp?key=${store.sdk_key}`, { body: JSON.stringify(legacy), headers: { 'content-type': 'application/csp-report' } });
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ accepted: 2, rejected: 0, rejections: [] });
    expect(first.headers['access-control-allow-origin']).toBe('*');

    const reports = [
      { type: 'csp-violation', url: `https://www.${store.domain}/pay`, body: { documentURL: `https://www.${store.domain}/pay`, effectiveDirective: 'img-src', blockedURL: 'https://pixel.example/p.gif' } },
      { type: 'deprecation', url: `https://www.${store.domain}/pay`, body: {} },
      JSON.parse(`{"type":"csp-violation","url":"https://www.${store.domain}/pay","body":{"__proto__":{"x":1},"effectiveDirective":"script-src"}}`),
    ];
    const second = await suite.service.request('POST', `/sdk/v1/csp?key=${store.sdk_key}`, { body: JSON.stringify(reports), headers: { 'content-type': 'application/reports+json' } });
    expect(second.status).toBe(202);
    expect(second.body).toMatchObject({ accepted: 1, rejected: 2, rejections: [{ index: 1 }, { index: 2, reason: expect.stringContaining('prototype keys') }] });

    expect((await scripts(store.id)).map((s) => s.src)).toEqual(['https://cdn.skimmer.example/s.js']);
    const alerts = await eventually(
      async () => (await suite.service.request('GET', `/api/v1/alerts?store_id=${store.id}`, { token: suite.token })).body.data as any[],
      (list) => list.length === 2,
    );
    expect(alerts.map((alert) => alert.source).sort()).toEqual(['https://cdn.skimmer.example/s.js', 'https://pixel.example/p.gif']);
    // The page's query string may carry personal data: the browser sent it, the service keeps the path only.
    expect(alerts.map((alert) => alert.details.page_url).sort()).toEqual([`https://www.${store.domain}/checkout`, `https://www.${store.domain}/pay`]);
    expect((await suite.service.request('POST', `/sdk/v1/csp?key=${store.sdk_key}`, { body: '[]', headers: { 'content-type': 'application/reports+json' } })).status).toBe(400);
    expect((await suite.service.request('POST', `/sdk/v1/csp?key=pk_live_${'0'.repeat(32)}`, { body: JSON.stringify(legacy), headers: { 'content-type': 'application/csp-report' } })).status).toBe(401);
  });

  it('serves the SDK: the moving sdk.js, the immutable versioned copy, and the hash to pin it with', async () => {
    const script = await suite.service.request('GET', '/sdk/v1/sdk.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(script.headers['access-control-allow-origin']).toBe('*');
    expect(script.headers['cache-control']).toBe('public, max-age=300');
    expect(script.text).toContain('events?key=');
    const versions = (await suite.service.request('GET', '/sdk/v1/versions')).body;
    const [release] = versions.versions;
    expect(versions.channels).toEqual({ stable: release.version, latest: release.version });
    expect(release.integrity).toBe(`sha384-${createHash('sha384').update(script.text).digest('base64')}`);
    const pinned = await suite.service.request('GET', `/sdk/v1/sdk-${release.version}.js`);
    expect(pinned.text).toBe(script.text);
    expect(pinned.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await suite.service.request('GET', '/sdk/v1/sdk.js', { headers: { 'if-none-match': String(script.headers.etag) } })).status).toBe(304);
    // as a proxy may ask: weakly, in a list
    expect((await suite.service.request('GET', '/sdk/v1/sdk.js', { headers: { 'if-none-match': `"stale", W/${script.headers.etag}` } })).status).toBe(304);
    const zipped = await suite.service.app.getHttpAdapter().getInstance().inject({ method: 'GET', url: '/sdk/v1/sdk.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(script.text);
    const unknown = await suite.service.request('GET', '/sdk/v1/sdk-0.0.1.js');
    expect([unknown.status, unknown.body.error.message]).toEqual([404, 'SDK version 0.0.1 is not served here']);
    const odd = await suite.service.request('GET', `/sdk/v1/sdk-${encodeURIComponent('<b>x')}.js`);
    expect([odd.status, odd.body.error.message]).toEqual([404, 'This SDK version is not served here']);

    const store = await suite.newStore({ release_channel: 'latest' });
    const config = (await suite.service.request('GET', `/sdk/v1/config?key=${store.sdk_key}`)).body;
    expect(config.sdk).toEqual({ channel: 'latest', version: release.version, url: release.url, integrity: release.integrity });
  });

  it("serves a store's key its channel's release with its config inside, rebuilt when its store changes", async () => {
    const store = await suite.newStore({ release_channel: 'latest', sensitive_fields: ['#card'] });
    const embedded = (text: string) => JSON.parse(/{const __pssConfig=(.*);$/m.exec(text)![1]);
    const keyed = await suite.service.request('GET', `/sdk/v1/sdk.js?key=${store.sdk_key}`);
    expect(keyed.status).toBe(200);
    expect(keyed.headers['cache-control']).toBe('public, max-age=300');
    expect(keyed.text.startsWith('//# allFunctionsCalledOnLoad\n"use strict";{const __pssConfig=')).toBe(true);
    expect(keyed.text).toContain('events?key=');
    expect(embedded(keyed.text)).toEqual({
      paused: false,
      config: expect.objectContaining({ mode: 'monitor', release_channel: 'latest', sensitive_fields: ['#card'] }),
      rules: { block: [], allow: [] },
      authorized_urls: [],
      cors_refused: [],
    });
    expect(embedded(keyed.text).config.updated_at).toBeUndefined();
    expect((await suite.service.request('GET', `/sdk/v1/sdk.js?key=${store.sdk_key}`, { headers: { 'if-none-match': String(keyed.headers.etag) } })).status).toBe(304);

    // developer mode reaches the script on the store's change, with the clock standing still (pages cache it 5 minutes anyway)
    expect((await suite.service.request('PATCH', `/api/v1/stores/${store.id}`, { token: suite.token, body: { developer_mode: true } })).status).toBe(200);
    const paused = await eventually(
      async () => (await suite.service.request('GET', `/sdk/v1/sdk.js?key=${store.sdk_key}`)).text,
      (text) => embedded(text).paused === true,
    );
    expect(embedded(paused).config.developer_mode).toBe(true);

    // no key, or one the service refuses: the release alone, which asks for its config (and is refused)
    const plain = (await suite.service.request('GET', '/sdk/v1/sdk.js')).text;
    expect(plain).not.toContain('{const __pssConfig=');
    expect((await suite.service.request('GET', `/sdk/v1/sdk.js?key=pk_live_${'0'.repeat(32)}`)).text).toBe(plain);
    expect((await suite.service.request('GET', '/sdk/v1/sdk.js?key=nonsense')).text).toBe(plain);
  });

  it("lists in the keyed sdk.js the tags of the store's scripts the SDK could never hash, and nothing else", async () => {
    const store = await suite.newStore();
    const other = await suite.newStore();
    const embedded = async (key: string) => JSON.parse(/{const __pssConfig=(.*);$/m.exec((await suite.service.request('GET', `/sdk/v1/sdk.js?key=${key}`)).text)![1]);
    const refused = `https://cdn.example/no-cors.js?visitor=v-${store.id}`;
    const pinned = 'https://cdn.example/pinned.js';
    const hashed = 'https://cdn.example/cors.js';
    expect(await embedded(store.sdk_key)).toMatchObject({ cors_refused: [] });
    await send(store.sdk_key, [
      { kind: 'script', src: refused, inline: false },
      { kind: 'script', src: pinned, inline: false, hash: sri('pinned'), hash_source: 'sri', integrity_attr: true },
      { kind: 'script', src: hashed, inline: false, hash: sri('cors'), hash_source: 'sdk' },
      { kind: 'script', inline: true, hash: sri('inline'), hash_source: 'sdk' },
    ]);
    await send(other.sdk_key, [{ kind: 'script', src: 'https://cdn.example/other-store.js', inline: false }]);
    // the new scripts' facts drop the built script, with the clock standing still
    const listed = await eventually(
      async () => (await embedded(store.sdk_key)).cors_refused as string[],
      (tags) => tags.length === 2,
    );
    expect([...listed].sort()).toEqual([urlTag(refused), urlTag(pinned)].sort());
    expect(JSON.stringify(await embedded(store.sdk_key))).not.toContain('no-cors.js'); // tags, never the URLs
    expect(listed).not.toContain(urlTag('https://cdn.example/other-store.js'));
  });

  it('answers the CORS preflight', async () => {
    const preflight = await suite.service.request('OPTIONS', '/sdk/v1/events?key=x', { headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('POST');
  });

  it('has the default threat-list policy block a malicious host, and marks an unknown script touching a card field suspicious', async () => {
    const store = await suite.newStore();
    await send(store.sdk_key, [
      { kind: 'script', src: 'https://magentocore.net/mage.js', hash: sri('skimmer') },
      { kind: 'script', src: 'https://cdn.widgets-unknown.io/w.js', hash: sri('widget') },
      { kind: 'sensitive_field_access', src: 'https://cdn.widgets-unknown.io/w.js', field: 'card_number' },
    ]);
    // The policies decide behind the 202.
    const list = await eventually(() => scripts(store.id), (found) => bySrc(found, 'magentocore')?.status === 'blocked');
    expect(bySrc(list, 'magentocore')).toMatchObject({ status: 'blocked', authorization_method: 'policy', justification: 'Host magentocore.net is in the threat list' });
    expect(bySrc(list, 'widgets-unknown').status).toBe('suspicious');
  });

  it('filters, pages newest first, scopes and keeps tenants apart', async () => {
    const store = await suite.newStore();
    await send(store.sdk_key, checkoutScripts(store.domain).slice(0, 2));
    clock.advance(1000);
    await send(store.sdk_key, checkoutScripts(store.domain).slice(2));
    const first = await suite.service.request('GET', `/api/v1/scripts?store_id=${store.id}&limit=3`, { token: suite.token });
    expect(first.body.data).toHaveLength(3);
    const second = await suite.service.request('GET', `/api/v1/scripts?store_id=${store.id}&limit=3&cursor=${first.body.next_cursor}`, { token: suite.token });
    expect(second.body.data).toHaveLength(2);
    expect(second.body.next_cursor).toBeNull();
    const all = [...first.body.data, ...second.body.data];
    expect(new Set(all.map((s) => s.id)).size).toBe(5);
    expect(all.map((s) => s.first_seen_at)).toEqual([...all.map((s) => s.first_seen_at)].sort().reverse());
    expect(await scripts(store.id, '&type=known_third')).toHaveLength(2);
    expect(await scripts(store.id, '&category=payment')).toHaveLength(1);
    expect((await suite.service.request('GET', '/api/v1/scripts?status=bogus', { token: suite.token })).status).toBe(400);
    const emptyCategory = await suite.service.request('GET', `/api/v1/scripts?store_id=${store.id}&category=`, { token: suite.token });
    expect([emptyCategory.status, emptyCategory.body.error.details]).toEqual([400, [{ field: 'category', message: 'category must not be empty' }]]);

    const stranger = await suite.service.tenant(SCOPES);
    const target = all[0];
    expect((await suite.service.request('GET', `/api/v1/scripts/${target.id}`, { token: stranger.token })).status).toBe(404);
    expect((await suite.service.request('POST', `/api/v1/scripts/${target.id}/block`, { token: stranger.token, body: {} })).status).toBe(404);
    const filtered = await suite.service.request('GET', `/api/v1/scripts?store_id=${store.id}`, { token: stranger.token });
    expect([filtered.status, filtered.body.error.message]).toEqual([404, 'Store not found']);
    const reader = await suite.service.tenant(['scripts:read']);
    expect((await suite.service.request('POST', `/api/v1/scripts/${target.id}/authorize`, { token: reader.token, body: { justification: 'x' } })).status).toBe(403);
  });
});
