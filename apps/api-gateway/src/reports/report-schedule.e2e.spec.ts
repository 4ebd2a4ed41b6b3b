import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, ManualClock, sri } from '@pss/testkit';
import { ScheduledReportsJob } from '@pss/reports/src/schedule/scheduled-reports.job';
import { signedWith } from '@pss/notifier/src/testing/signature-check';
import { webhookSuite } from '@pss/notifier/src/testing/webhook-harness';

const SCOPES = ['stores:write', 'reports:read', 'reports:generate', 'webhooks:manage', 'orgs:manage'];

/** Weekly schedules: set through the API, made on Monday 09:00 UTC once however often the job runs, delivered as report.ready. */
describe('PCI report schedules (HTTP, embedded)', () => {
  // A Monday evening: the next weekly report is due Monday 2026-11-30 09:00 UTC.
  const clock = new ManualClock('2026-11-23T20:00:00.000Z');
  const suite = webhookSuite({ clock, scopes: SCOPES, organization: { plan: 'enterprise', 'owner-email': 'dona@loja.example' } });

  const call = (method: string, url: string, body?: unknown, headers?: Record<string, string>) => suite.service.request(method, `/api/v1${url}`, { token: suite.token, body, headers });

  it('sets, lists, changes and deletes a store\'s schedule, with the spec\'s defaults and errors', async () => {
    const store = await suite.newStore();
    const set = await call('POST', '/reports/pci/schedule', { store_id: store.id, cadence: 'weekly' });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ store_id: store.id, cadence: 'weekly', locale: 'pt-BR', active: true, updated_at: '2026-11-23T20:00:00.000Z', updated_by: `api:${suite.prefix}` });
    expect((await call('GET', `/reports/pci/schedule?store_id=${store.id}`)).body).toEqual({ data: [set.body] });

    const changed = await call('POST', '/reports/pci/schedule', { store_id: store.id, cadence: 'monthly', locale: 'en', active: false });
    expect(changed.body).toMatchObject({ cadence: 'monthly', locale: 'en', active: false });

    const invalid = await call('POST', '/reports/pci/schedule', { store_id: 'x', cadence: 'daily', locale: 'de', active: 'yes', extra: 1 });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details.map((detail: any) => detail.field).sort()).toEqual(['active', 'cadence', 'extra', 'locale', 'store_id']);

    const other = await suite.service.tenant(SCOPES, { plan: 'enterprise' });
    expect((await suite.service.request('POST', '/api/v1/reports/pci/schedule', { token: other.token, body: { store_id: store.id, cadence: 'weekly' } })).status).toBe(404);
    expect((await suite.service.request('GET', '/api/v1/reports/pci/schedule', { token: other.token })).body).toEqual({ data: [] });

    expect((await call('DELETE', `/reports/pci/schedule?store_id=${store.id}`)).body).toEqual({ store_id: store.id, deleted: true });
    expect((await call('GET', `/reports/pci/schedule?store_id=${store.id}`)).body).toEqual({ data: [] });
    expect((await call('DELETE', `/reports/pci/schedule?store_id=${store.id}`)).status).toBe(404);
    expect((await call('DELETE', '/reports/pci/schedule')).status).toBe(400);
  });

  it('replays POST /reports/pci/schedule for the same Idempotency-Key', async () => {
    const store = await suite.newStore();
    const headers = { 'idempotency-key': `schedule-${store.id}` };
    const first = await call('POST', '/reports/pci/schedule', { store_id: store.id, cadence: 'weekly' }, headers);
    clock.advance(1000);
    const replay = await call('POST', '/reports/pci/schedule', { store_id: store.id, cadence: 'weekly' }, headers);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
  });

  it('shows the schedule in the organization\'s partner_settings, keyed by store id', async () => {
    const child = (await call('POST', '/organizations', { name: 'Loja Filha', owner_email: 'filha@loja.example', plan: 'growth' })).body;
    const store = (await call('POST', `/stores?org_id=${child.id}`, { domain: `filha-${Date.now().toString(36)}.com.br` })).body;
    const schedule = (await call('POST', '/reports/pci/schedule', { org_id: child.id, store_id: store.id, cadence: 'monthly', locale: 'en' })).body;
    const listed = await eventually(
      async () => ((await call('GET', '/organizations')).body.data as any[]).find((organization) => organization.id === child.id),
      (organization) => organization?.partner_settings?.report_schedules?.[store.id] !== undefined,
    );
    expect(listed.partner_settings.report_schedules[store.id]).toEqual(schedule);
    await call('DELETE', `/reports/pci/schedule?org_id=${child.id}&store_id=${store.id}`);
    await eventually(
      async () => ((await call('GET', '/organizations')).body.data as any[]).find((organization) => organization.id === child.id),
      (organization) => organization.partner_settings.report_schedules?.[store.id] === undefined,
    );
  });

  it('makes the weekly report on Monday 09:00 UTC once, delivers a signed report.ready to a webhook and the owner\'s e-mail', async () => {
    const store = await suite.newStore();
    await suite.service.reportSdk(store.sdk_key, [{ kind: 'script', src: 'https://cdn.pagamentos.example/w.js', hash: sri('w') }]);
    const channel = (await call('POST', '/webhooks', { url: suite.receiver.url('/ready'), store_id: store.id, events: ['report.ready'] })).body;
    await call('POST', '/reports/pci/schedule', { store_id: store.id, cadence: 'weekly', locale: 'en' });
    const job = suite.service.app.get(ScheduledReportsJob);

    // Sunday night: nothing due yet.
    expect((await job.runAt(new Date('2026-11-30T08:59:59.999Z'), 'catch_up')).snapshots.filter((made) => made.store_id === store.id)).toEqual([]);

    const at = '2026-11-30T09:00:00Z';
    const first = await suite.service.ops('reports.run-schedule', { at });
    const again = await suite.service.ops('reports.run-schedule', { at });
    const ours = first.snapshots.filter((made: any) => made.store_id === store.id);
    expect(ours).toEqual([{ id: expect.any(String), store_id: store.id, kind: 'weekly', period_start: '2026-11-23T00:00:00.000Z', period_end: '2026-11-30T00:00:00.000Z', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(again).toEqual({ at: '2026-11-30T09:00:00.000Z', snapshots: [] });
    expect((await job.runAt(new Date(at), 'catch_up')).snapshots).toEqual([]);

    const snapshot = (await call('GET', `/reports/pci/snapshots/${ours[0].id}`)).body;
    expect(snapshot).toMatchObject({ kind: 'weekly', locale: 'en', generated_by: 'scheduler', generated: false });

    const [delivery, ...more] = await suite.receiver.waitFor(1, '/ready');
    expect(more).toEqual([]);
    expect(signedWith(delivery, channel.secret)).toBe(true);
    expect(delivery.json).toMatchObject({
      type: 'report.ready',
      data: { report_id: ours[0].id, store_id: store.id, kind: 'weekly', period_start: '2026-11-23T00:00:00.000Z', period_end: '2026-11-30T00:00:00.000Z', locale: 'en', sha256: ours[0].sha256 },
    });
    const snapshotPath = `/api/v1/reports/pci/snapshots/${ours[0].id}`;
    expect(delivery.json.data.links).toEqual({
      json: expect.stringMatching(new RegExp(`^https?://[^/]+${snapshotPath}$`)),
      pdf: expect.stringContaining(`${snapshotPath}?format=pdf`),
      csv: { scripts: expect.stringContaining('csv_table=scripts'), headers: expect.stringContaining('csv_table=headers'), alerts: expect.stringContaining('csv_table=alerts'), connections: expect.stringContaining('csv_table=connections') },
    });
    await eventually(async () => mailsAbout(ours[0].id), (mails) => mails.length === 1);
  });

  it('makes a run once when two replicas run the job at the same instant', async () => {
    const store = await suite.newStore();
    await call('POST', '/webhooks', { url: suite.receiver.url('/replicas'), store_id: store.id, events: ['report.ready'] });
    await call('POST', '/reports/pci/schedule', { store_id: store.id, cadence: 'weekly' });
    const job = suite.service.app.get(ScheduledReportsJob);
    const at = new Date('2026-12-14T09:00:00Z');
    const [one, two] = await Promise.all([job.runAt(at, 'instant'), job.runAt(at, 'instant')]);
    const made = [...one.snapshots, ...two.snapshots].filter((snapshot) => snapshot.store_id === store.id);
    expect(made).toHaveLength(1);
    expect((await call('GET', `/reports/pci/snapshots?store_id=${store.id}`)).body.data).toHaveLength(1);
    await suite.receiver.waitFor(1, '/replicas');
    // Deliveries would have arrived by now had a second report.ready gone out; the marker run makes sure.
    const marker = await suite.newStore();
    await call('POST', '/webhooks', { url: suite.receiver.url('/replicas-marker'), store_id: marker.id, events: ['report.ready'] });
    await call('POST', '/reports/pci/schedule', { store_id: marker.id, cadence: 'weekly' });
    await job.runAt(new Date('2026-12-21T09:00:00Z'), 'instant');
    await suite.receiver.waitFor(1, '/replicas-marker');
    const sameRun = suite.receiver.received.filter((request) => request.path === '/replicas' && request.json.data.period_end === '2026-12-14T00:00:00.000Z');
    expect(sameRun).toHaveLength(1);
  });

  it('never sends report.ready for GET /reports/pci', async () => {
    const store = await suite.newStore();
    await call('POST', '/webhooks', { url: suite.receiver.url('/on-demand'), store_id: store.id, events: ['report.ready'] });
    expect((await call('GET', `/reports/pci?store_id=${store.id}`)).status).toBe(200);
    // The scheduled run of another store goes out meanwhile: it is the marker that deliveries flowed.
    const marker = await suite.newStore();
    await call('POST', '/webhooks', { url: suite.receiver.url('/marker'), store_id: marker.id, events: ['report.ready'] });
    await call('POST', '/reports/pci/schedule', { store_id: marker.id, cadence: 'weekly' });
    await suite.service.ops('reports.run-schedule', { at: '2026-12-07T09:00:00Z' });
    await suite.receiver.waitFor(1, '/marker');
    expect(suite.receiver.received.filter((request) => request.path === '/on-demand')).toEqual([]);
  });

  /** The mails the embedded mail port left in the outbox that mention `text`. */
  const mailsAbout = (text: string): Array<{ to: string; subject: string; text: string }> => {
    const outbox = join(suite.service.config.dataDir, 'outbox');
    if (!existsSync(outbox)) return [];
    const mails = readdirSync(outbox).filter((file) => file.endsWith('.json')).map((file) => JSON.parse(readFileSync(join(outbox, file), 'utf8')));
    return mails.filter((mail) => mail.text.includes(text));
  };
});
