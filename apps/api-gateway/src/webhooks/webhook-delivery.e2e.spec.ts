import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, ManualClock, sri } from '@pss/testkit';
import { RetryCycle } from '@pss/notifier/src/delivery/retry-cycle';
import type { ReceivedRequest } from '@pss/notifier/src/testing/https-receiver';
import { signedWith } from '@pss/notifier/src/testing/signature-check';
import { webhookSuite } from '@pss/notifier/src/testing/webhook-harness';

const SCOPES = ['webhooks:manage', 'stores:write', 'scripts:read', 'scripts:review', 'alerts:read'];
const MINUTE = 60_000;

/** What the product issue calls done, driven from the SDK endpoint as a shop's checkout would. */
describe('webhook deliveries from SDK reports (embedded)', () => {
  const clock = new ManualClock('2026-06-01T12:00:00.000Z');
  const suite = webhookSuite({ clock, scopes: SCOPES });

  const newStore = () => suite.newStore();
  const newChannel = async (path: string, body: Record<string, unknown>) =>
    (await suite.service.request('POST', '/api/v1/webhooks', { token: suite.token, body: { url: suite.receiver.url(path), ...body } })).body;
  const send = (key: string, observations: unknown[], session = 'shopper-1') => suite.service.reportSdk(key, observations, { session_id: session });
  const typesOf = (requests: ReceivedRequest[]) => requests.map((request) => request.headers['x-service-event']);

  it('delivers a signed, verifiable script.detected seconds after the SDK reports a new script', async () => {
    const store = await newStore();
    const channel = await newChannel('/detected', { store_id: store.id, events: ['script.detected'] });
    await send(store.sdk_key, [{ kind: 'script', src: 'https://cdn.checkout-widgets.io/w.js', hash: sri('widget v1') }]);

    const [delivery, ...more] = await suite.receiver.waitFor(1, '/detected');
    expect(more).toEqual([]);
    expect(signedWith(delivery, channel.secret)).toBe(true);
    expect(delivery.headers).toMatchObject({ 'content-type': 'application/json', 'user-agent': 'Service-Webhooks/1.0', 'x-service-event': 'script.detected' });
    const [script] = (await suite.get(`/scripts?store_id=${store.id}`)).body.data;
    expect(delivery.json).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      type: 'script.detected',
      created_at: script.first_seen_at,
      data: expect.objectContaining({ script_id: script.id, store_id: store.id, src: 'https://cdn.checkout-widgets.io/w.js', status: 'needs_review', url: `http://localhost:3000/api/v1/scripts/${script.id}` }),
    });
  });

  it('sends a channel with the default min_severity the integrity alert, and not the medium header change', async () => {
    const store = await newStore();
    const channel = await newChannel('/default', { store_id: store.id });
    const widget = { kind: 'script', src: 'https://cdn.checkout-widgets.io/w.js' };
    await send(store.sdk_key, [{ ...widget, hash: sri('widget v1') }, { kind: 'headers', headers: { 'Content-Security-Policy': "script-src 'self'" } }]);
    const [script] = (await suite.get(`/scripts?store_id=${store.id}`)).body.data;
    await suite.call('POST', `/scripts/${script.id}/authorize`, { justification: 'Installments widget' });
    await send(store.sdk_key, [{ kind: 'headers', headers: { 'Content-Security-Policy': "script-src 'self' https://cdn.evil.example" } }]);
    await send(store.sdk_key, [{ ...widget, hash: sri('widget v1 tampered') }], 'shopper-2');

    const received = await suite.receiver.until((requests) => typesOf(requests).includes('integrity.changed') && typesOf(requests).includes('alert.created'), '/default');
    const alerts = (await suite.get(`/alerts?store_id=${store.id}`)).body.data;
    expect(alerts.map((alert: { type: string }) => alert.type).sort()).toEqual(['HEADER_CHANGED', 'SCRIPT_INTEGRITY_MISMATCH']);
    for (const request of received) expect(signedWith(request, channel.secret)).toBe(true);
    const integrity = received.find((request) => request.json.type === 'integrity.changed')!;
    expect(integrity.json.data).toMatchObject({ type: 'SCRIPT_INTEGRITY_MISMATCH', severity: 'high', source: widget.src, details: { script_id: script.id } });
    // Every delivery is recorded before it is attempted: the history shows all this channel was ever sent.
    const history = (await suite.service.ops('deliveries.list', { org: suite.orgId, channel: channel.id })).data;
    expect(history.map((entry: { event_type: string }) => entry.event_type).sort()).toEqual(['alert.created', 'integrity.changed', 'script.detected']);
  });

  it('gets the event to a receiver that is down for an hour', async () => {
    const store = await newStore();
    const channel = await newChannel('/down-an-hour', { store_id: store.id, events: ['script.detected'] });
    const recovery = clock.now().getTime() + 60 * MINUTE;
    suite.receiver.answerWith(() => (clock.now().getTime() < recovery ? { status: 503, body: 'maintenance' } : { status: 200 }));
    await send(store.sdk_key, [{ kind: 'script', src: 'https://cdn.checkout-widgets.io/late.js', hash: sri('late') }]);
    await eventually(async () => (await suite.service.ops('deliveries.list', { org: suite.orgId, channel: channel.id })).data, ([entry]) => entry?.attempts === 1);

    for (let minutes = 5; minutes <= 90; minutes += 5) {
      clock.advance(5 * MINUTE);
      await suite.service.app.get(RetryCycle).run();
    }
    suite.receiver.answerWith({ status: 200 });
    const attempts = await suite.receiver.waitFor(4, '/down-an-hour');
    expect(attempts).toHaveLength(4);
    expect(new Set(attempts.map((request) => request.json.id)).size).toBe(1);
    expect((await suite.service.ops('deliveries.list', { org: suite.orgId, channel: channel.id })).data).toEqual([expect.objectContaining({ status: 'delivered', attempts: 4 })]);
  });

  it("mails the store owner's default e-mail channel a critical alert, and stops once the store is suspended", async () => {
    const store = await newStore();
    await send(store.sdk_key, [{ kind: 'script', src: 'https://magentocore.net/mage.js', hash: sri('skimmer') }]);
    const [mail, ...others] = await eventually(() => mailsAbout(store.id), (mails) => mails.length > 0);
    expect(others).toEqual([]);
    expect(mail).toMatchObject({ to: 'owner@acme.example', subject: 'Payment Page Script Security: New critical alert: Malicious script' });
    expect(mail.text).toContain('https://magentocore.net/mage.js');

    expect((await suite.call('DELETE', `/stores/${store.id}`)).status).toBe(200);
    const channels = await eventually(
      async () => (await suite.service.ops('channels.list', { org: store.org_id })).data as Array<{ type: string; store_id: string; active: boolean }>,
      (found) => found.some((channel) => channel.store_id === store.id && !channel.active),
    );
    expect(channels.filter((channel) => channel.store_id === store.id)).toEqual([expect.objectContaining({ type: 'email', active: false })]);
  });

  /** The mails the embedded mail port left in the outbox about a store. */
  const mailsAbout = (storeId: string): Array<{ to: string; subject: string; text: string }> => {
    const outbox = join(suite.service.config.dataDir, 'outbox');
    if (!existsSync(outbox)) return [];
    const mails = readdirSync(outbox).filter((file) => file.endsWith('.json')).map((file) => JSON.parse(readFileSync(join(outbox, file), 'utf8')));
    return mails.filter((mail) => mail.text.includes(storeId));
  };
});
