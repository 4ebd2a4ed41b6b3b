import { createHash } from 'node:crypto';
import { eventually, ManualClock, sri } from '@pss/testkit';
import { SightingsFlusher } from '../sdk/intake/sightings-flusher';
import { SdkSilenceWatcher } from '@pss/alerts/src/sdk-watch/sdk-silence.watcher';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const HOUR_MS = 60 * 60 * 1000;
const SCOPES = ['stores:read', 'stores:write', 'scripts:read', 'scripts:review', 'alerts:read', 'alerts:write'];

describe('alerts (HTTP, embedded)', () => {
  const clock = new ManualClock('2026-06-01T12:00:00.000Z');
  const suite = embeddedSuite({ clock, scopes: SCOPES });

  const newStore = (body: Record<string, unknown> = {}) => suite.newStore(body);
  const send = (key: string, observations: unknown[], session = 'shopper-1') => suite.service.reportSdk(key, observations, { session_id: session });
  const list = async (query: string, as = suite.token) => (await suite.service.request('GET', `/api/v1/alerts?${query}`, { token: as })).body.data as any[];
  const patch = (id: string, body: unknown, as = suite.token) => suite.service.request('PATCH', `/api/v1/alerts/${id}`, { token: as, body });
  /** Alerts come through the event store, the publisher and the bus: ask again, for 10 seconds at most. */
  const alertsWhen = (query: string, done: (alerts: any[]) => boolean, before?: () => Promise<unknown>): Promise<any[]> =>
    eventually(async () => (await before?.(), list(query)), done);

  it('opens one high SCRIPT_INTEGRITY_MISMATCH however many sessions get tampered content; an operator resolves and reopens it', async () => {
    const store = await newStore();
    const widget = { kind: 'script', src: 'https://cdn.checkout-widgets.io/w.js' };
    await send(store.sdk_key, [{ ...widget, hash: sri('widget v1') }]);
    const [script] = (await suite.get(`/scripts?store_id=${store.id}`)).body.data;
    await suite.call('POST', `/scripts/${script.id}/authorize`, { justification: 'Installments widget' });

    // A skimmer served to some sessions only: tampered and genuine content alternate.
    const served = { tampered: sri('widget v1 tampered'), genuine: sri('widget v1') };
    const sessions = ['tampered', 'genuine', 'tampered', 'genuine', 'tampered', 'tampered'] as const;
    for (const [n, content] of sessions.entries()) await send(store.sdk_key, [{ ...widget, hash: served[content] }], `shopper-${n + 2}`);

    const [alert, ...others] = await alertsWhen(`store_id=${store.id}`, (alerts) => alerts[0]?.occurrences === 3);
    expect(others).toEqual([]);
    expect(alert).toMatchObject({
      store_id: store.id,
      type: 'SCRIPT_INTEGRITY_MISMATCH',
      change_type: null,
      severity: 'high',
      status: 'open',
      source: widget.src,
      page: '/checkout',
      details: { script_id: script.id, src: widget.src, authorized_hash: served.genuine, new_hash: served.tampered },
      occurrences: 3,
      resolved_at: null,
      auto_resolved: false,
    });
    expect(alert.fingerprint).toMatch(/^[0-9a-f]{64}$/);

    clock.advance(60_000);
    const resolved = await patch(alert.id, { status: 'resolved', note: 'CDN compromised; file restored and SRI pinned' });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({
      id: alert.id,
      status: 'resolved',
      resolved_at: clock.now().toISOString(),
      resolved_by_label: `api:${suite.prefix}`,
      note: 'CDN compromised; file restored and SRI pinned',
    });
    const reopened = await patch(alert.id, { status: 'open' });
    expect(reopened.body).toMatchObject({ status: 'open', resolved_at: null, resolved_by_label: null, note: 'CDN compromised; file restored and SRI pinned' });
    expect((await suite.get(`/alerts/${alert.id}`)).body).toEqual(reopened.body);
    const cleared = await patch(alert.id, { status: 'open', note: null });
    expect([cleared.status, cleared.body.note]).toEqual([200, null]);

    await patch(alert.id, { status: 'resolved' });
    await send(store.sdk_key, [{ ...widget, hash: sri('widget v1') }], 'shopper-9');
    await send(store.sdk_key, [{ ...widget, hash: sri('widget v1 tampered again') }], 'shopper-9');
    const [newest, old] = await alertsWhen(`store_id=${store.id}`, (alerts) => alerts.length === 2);
    expect(old).toMatchObject({ id: alert.id, status: 'resolved' });
    expect(newest).toMatchObject({ status: 'open', occurrences: 1, fingerprint: alert.fingerprint });
    expect(newest.id).not.toBe(alert.id);
  });

  it('takes the SRI token of another algorithm for the authorized content as that content, and its change as a mismatch', async () => {
    const store = await newStore();
    const widget = { kind: 'script', src: 'https://cdn.checkout-widgets.io/sri-pinned.js', integrity_attr: true };
    await send(store.sdk_key, [{ ...widget, hash: sri('widget v1'), hash_source: 'sdk' }]);
    const [script] = (await suite.get(`/scripts?store_id=${store.id}`)).body.data;
    await suite.call('POST', `/scripts/${script.id}/authorize`, { justification: 'Installments widget' });

    // The re-fetch refused on one page view: the page's own SHA-256 token of the same bytes is all the SDK has.
    await send(store.sdk_key, [{ ...widget, hash: sri('widget v1', 'sha256'), hash_source: 'sri' }], 'shopper-2');
    await send(store.sdk_key, [{ ...widget, hash: sri('widget v1'), hash_source: 'sdk' }], 'shopper-3');
    const after = (await suite.get(`/scripts?store_id=${store.id}`)).body.data[0];
    expect(after).toMatchObject({ integrity_status: 'match', authorized_hash: sri('widget v1') });

    await send(store.sdk_key, [{ ...widget, hash: sri('widget v1 tampered', 'sha256'), hash_source: 'sri' }], 'shopper-4');
    const [alert, ...others] = await alertsWhen(`store_id=${store.id}`, (alerts) => alerts.length > 0);
    expect(others).toEqual([]);
    expect(alert).toMatchObject({
      type: 'SCRIPT_INTEGRITY_MISMATCH',
      details: { script_id: script.id, authorized_hash: sri('widget v1', 'sha256'), new_hash: sri('widget v1 tampered', 'sha256') },
    });
  });

  it('alerts on a changed CSP header, a swapped Pix key, a CSP violation and a threat-list script', async () => {
    const store = await newStore({ recipients: [{ method: 'pix', key: '123.456.789-09', label: 'Main Pix' }] });
    await send(store.sdk_key, [{ kind: 'headers', headers: { 'Content-Security-Policy': "script-src 'self'" } }]);
    await send(store.sdk_key, [
      { kind: 'headers', headers: { 'Content-Security-Policy': "script-src 'self' https://cdn.evil.example" } },
      { kind: 'payment_recipient', method: 'pix', key_hash: sha256('98765432100') },
      { kind: 'payment_recipient', method: 'pix', key_hash: sha256('12345678909') },
      { kind: 'script', src: 'https://magentocore.net/mage.js', hash: sri('skimmer') },
    ]);
    for (const session of ['shopper-1', 'shopper-2', 'shopper-2']) {
      await send(store.sdk_key, [{ kind: 'csp_violation', directive: 'script-src', blocked_uri: 'https://cdn.evil.example/x.js' }], session);
    }

    const alerts = await alertsWhen(`store_id=${store.id}`, (found) => found.length === 4 && found.some((a) => a.occurrences === 3));
    const byType = Object.fromEntries(alerts.map((alert) => [alert.type, alert]));
    expect(byType.HEADER_CHANGED).toMatchObject({
      severity: 'medium',
      change_type: 'changed',
      source: 'content-security-policy',
      page: '/checkout',
      details: {
        header: 'content-security-policy',
        change_type: 'changed',
        old_value: "script-src 'self'",
        new_value: "script-src 'self' https://cdn.evil.example",
        page: '/checkout',
        page_url: `https://www.${store.domain}/checkout`, // the batch's query string is not kept
      },
    });
    expect(byType.RECIPIENT_MISMATCH).toMatchObject({ severity: 'critical', source: 'pix', details: { method: 'pix', key_hash: sha256('98765432100'), pinned: 1 } });
    expect(JSON.stringify(byType.RECIPIENT_MISMATCH)).not.toContain('98765432100');
    expect(byType.CSP_VIOLATION).toMatchObject({ severity: 'medium', occurrences: 3, sessions_count: 2, details: { directive: 'script-src', blocked_uri: 'https://cdn.evil.example/x.js' } });
    expect(byType.MALICIOUS_SCRIPT).toMatchObject({ severity: 'critical', source: 'https://magentocore.net/mage.js' });

    expect((await list(`store_id=${store.id}&severity=critical`)).map((a) => a.type).sort()).toEqual(['MALICIOUS_SCRIPT', 'RECIPIENT_MISMATCH']);
    expect((await list(`store_id=${store.id}&type=HEADER_CHANGED`)).map((a) => a.id)).toEqual([byType.HEADER_CHANGED.id]);
    await patch(byType.CSP_VIOLATION.id, { status: 'resolved' });
    expect((await list(`store_id=${store.id}&status=resolved`)).map((a) => a.id)).toEqual([byType.CSP_VIOLATION.id]);
    expect(await list(`store_id=${store.id}&status=open`)).toHaveLength(3);
    const status = (await suite.get(`/stores/${store.id}/status`)).body;
    expect(status.alerts).toEqual({ open: 3 });
  });

  it('pages newest first', async () => {
    const store = await newStore();
    for (const uri of ['https://a.example/1.js', 'https://a.example/2.js', 'https://a.example/3.js']) {
      clock.advance(1000);
      await send(store.sdk_key, [{ kind: 'csp_violation', directive: 'script-src', blocked_uri: uri }]);
      await alertsWhen(`store_id=${store.id}`, (alerts) => alerts.some((alert) => alert.source === uri));
    }
    const first = await suite.get(`/alerts?store_id=${store.id}&limit=2`);
    const second = await suite.get(`/alerts?store_id=${store.id}&limit=2&cursor=${first.body.next_cursor}`);
    expect([...first.body.data, ...second.body.data].map((alert) => alert.source)).toEqual(['https://a.example/3.js', 'https://a.example/2.js', 'https://a.example/1.js']);
    expect(second.body.next_cursor).toBeNull();
  });

  it('validates, checks scopes and keeps organizations apart', async () => {
    const store = await newStore();
    await send(store.sdk_key, [{ kind: 'csp_violation', directive: 'img-src', blocked_uri: 'https://pixel.example/p.gif' }]);
    const [alert] = await alertsWhen(`store_id=${store.id}`, (alerts) => alerts.length === 1);

    const fieldsOf = (answer: { body: any }) => answer.body.error.details.map((detail: { field: string }) => detail.field);
    const longNote = await patch(alert.id, { status: 'resolved', note: 'x'.repeat(1001) });
    expect(longNote.status).toBe(400);
    expect(fieldsOf(longNote)).toEqual(['note']);
    expect(fieldsOf(await patch(alert.id, { status: 'closed' }))).toEqual(['status']);
    expect(fieldsOf(await patch(alert.id, { note: 'no status' }))).toEqual(['status']);
    expect(fieldsOf(await patch(alert.id, { status: 'open', severity: 'low' }))).toEqual(['severity']);
    expect(fieldsOf(await patch(alert.id, { status: 'open', snoozed_until: clock.now().toISOString() }))).toEqual(['snoozed_until']);
    expect((await patch('not-a-uuid', { status: 'open' })).status).toBe(400);
    expect((await suite.service.request('GET', '/api/v1/alerts?type=SOMETHING', { token: suite.token })).status).toBe(400);
    expect((await patch(alert.id, { status: 'resolved', note: 'x'.repeat(1000) })).status).toBe(200);

    const reader = await suite.service.tenant(['alerts:read']);
    expect((await patch(alert.id, { status: 'open' }, reader.token)).status).toBe(403);
    const storesOnly = await suite.service.tenant(['stores:read']);
    expect((await suite.service.request('GET', '/api/v1/alerts', { token: storesOnly.token })).status).toBe(403);

    const stranger = await suite.service.tenant(SCOPES);
    expect((await suite.service.request('GET', `/api/v1/alerts/${alert.id}`, { token: stranger.token })).status).toBe(404);
    expect((await patch(alert.id, { status: 'open' }, stranger.token)).status).toBe(404);
    const filtered = await suite.service.request('GET', `/api/v1/alerts?store_id=${store.id}`, { token: stranger.token });
    expect([filtered.status, filtered.body.error.message]).toEqual([404, 'Store not found']);
  });

  it('opens SDK_SILENT for a store whose SDK stopped reporting, and closes it when the SDK comes back', async () => {
    const store = await newStore();
    const watcher = suite.service.app.get(SdkSilenceWatcher);
    const flush = () => suite.service.app.get(SightingsFlusher).run();
    // A page view: only batches with script observations count as the SDK reporting (issue 29, forged evidence).
    const pageView = [{ kind: 'script', src: `https://www.${store.domain}/app.js`, inline: false }];
    await send(store.sdk_key, pageView);
    await flush();

    clock.advance(25 * HOUR_MS);
    // The watch learns of the flush through the bus: the watcher runs until it has.
    const [silent] = await alertsWhen(`store_id=${store.id}&type=SDK_SILENT`, (alerts) => alerts.length === 1, () => watcher.run());
    expect(silent).toMatchObject({ type: 'SDK_SILENT', severity: 'medium', status: 'open', details: { domain: store.domain } });

    await send(store.sdk_key, [{ kind: 'csp_violation', directive: 'font-src', blocked_uri: 'https://fonts.example/f.woff' }]);
    await flush();
    clock.advance(HOUR_MS);
    await watcher.run(); // signals alone are no page view: still silent
    expect((await suite.get(`/alerts/${silent.id}`)).body.status).toBe('open');
    await send(store.sdk_key, pageView);
    await flush();
    const [closed] = await alertsWhen(`store_id=${store.id}&type=SDK_SILENT`, (alerts) => alerts[0]?.status === 'resolved');
    expect(closed).toMatchObject({ id: silent.id, status: 'resolved', auto_resolved: true, resolved_by_label: 'system', resolved_at: clock.now().toISOString() });
  });
});
