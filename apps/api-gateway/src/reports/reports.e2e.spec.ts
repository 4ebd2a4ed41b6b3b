import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { eventually, ManualClock, sri } from '@pss/testkit';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';
import { SightingsFlusher } from '../sdk/intake/sightings-flusher';
import { ReportFactsConsumer } from '@pss/reports/src/facts/report-facts.consumer';
import { ReportFileLinks } from '@pss/report-files/report-file-links';
import { REPORT_FILES_PATH } from '@pss/report-files';

const SCOPES = ['stores:write', 'scripts:read', 'scripts:review', 'reports:read', 'reports:generate', 'alerts:read', 'alerts:write'];

describe('PCI reports (HTTP, embedded)', () => {
  const clock = new ManualClock('2026-11-23T12:00:00.000Z');
  const suite = embeddedSuite({ clock, scopes: SCOPES, organization: { plan: 'growth', 'billing-mode': 'processor' } });
  let store: any;

  const get = (url: string, as = suite.token) => suite.service.request('GET', `/api/v1${url}`, { token: as });

  beforeAll(async () => {
    store = await suite.newStore({ timezone: 'America/Sao_Paulo' });
    await suite.service.reportSdk(store.sdk_key, [
      { kind: 'script', src: 'https://cdn.pagamentos.example/widget.js', hash: sri('widget') },
      { kind: 'script', src: 'https://evil.example/skim.js', hash: sri('skim') },
      { kind: 'headers', headers: { 'Content-Security-Policy': "script-src 'self'" } },
    ]);
    const scripts = (await eventually(() => get(`/scripts?store_id=${store.id}`), (answer) => answer.body.data?.length === 2)).body.data;
    const widget = scripts.find((script: any) => script.src.includes('widget'));
    const skimmer = scripts.find((script: any) => script.src.includes('skim'));
    await suite.call('POST', `/scripts/${widget.id}/authorize`, { justification: 'Parcelamento do checkout, revisado' });
    await suite.call('POST', `/scripts/${skimmer.id}/block`, { justification: 'Desconhecido' });
  });

  it('answers this week\'s report as JSON whose counts match the inventory', async () => {
    const answer = await eventually(
      () => get(`/reports/pci?store_id=${store.id}`),
      (reply) => reply.status === 200 && reply.body.data.summary_643.blocked === 1,
    );
    const inventory = (await get(`/scripts?store_id=${store.id}`)).body.data as any[];
    const count = (status: string) => inventory.filter((script) => script.status === status).length;
    expect(answer.body).toMatchObject({
      store_id: store.id,
      kind: 'on_demand',
      period_start: '2026-11-16T12:00:00.000Z',
      period_end: '2026-11-23T12:00:00.000Z',
      locale: 'pt-BR',
      schema_version: 2,
      generated_by: `api:${suite.prefix}`,
      has_pdf: true,
      csv_tables: ['scripts', 'connections', 'headers', 'alerts'],
      generated: true,
    });
    expect(answer.body.sha256).toMatch(/^[0-9a-f]{64}$/);
    const { data } = answer.body;
    expect(data.meta).toMatchObject({ report_id: answer.body.id, domain: store.domain, schema_version: 2, store: { id: store.id } });
    expect(data.summary_643).toEqual({ total: inventory.length, authorized: count('authorized'), blocked: count('blocked'), needs_review: count('needs_review'), expired: 0 });
    for (const script of inventory) {
      const { status, integrity_status, current_hash, authorized_hash } = script;
      expect(data.scripts.find((reported: any) => reported.id === script.id)).toMatchObject({ status, integrity_status, current_hash, authorized_hash });
    }
    expect(data.scripts.find((script: any) => script.status === 'authorized')).toMatchObject({ justification: 'Parcelamento do checkout, revisado', authorized_by: `api:${suite.prefix}` });
    // The store was created at period_end: its one week starts there, none is flagged before it existed.
    expect(data.periodic_checks.map((week: any) => [week.week_start, week.no_monitoring])).toEqual([[store.created_at, false]]);
  });

  it('shows a header change and its alert, and the alert resolved by a person as of then', async () => {
    const shop = await suite.newStore();
    await suite.service.reportSdk(shop.sdk_key, [{ kind: 'headers', headers: { 'Content-Security-Policy': "script-src 'self'" } }]);
    await suite.service.reportSdk(shop.sdk_key, [{ kind: 'headers', headers: { 'Content-Security-Policy': "script-src 'self' https://cdn.example" } }]);
    const [alert] = (await eventually(() => get(`/alerts?store_id=${shop.id}`), (answer) => answer.body.data?.length === 1)).body.data;
    const opened = await eventually(() => get(`/reports/pci?store_id=${shop.id}`), (answer) => answer.body.data.summary_1161.alerts_total === 1);
    const kinds = { new_scripts: 0, hash_changes: 0, header_changes: 1, csp_violations: 0, unexpected_iframes: 0, recipient_mismatches: 0 };
    expect(opened.body.data.summary_1161).toEqual({ events: 1, events_by_kind: kinds, alerts_total: 1, alerts_open: 1, pages_observed: 0 });
    expect(opened.body.data.headers).toEqual([
      expect.objectContaining({ name: 'content-security-policy', baseline: "script-src 'self'", last_value: "script-src 'self' https://cdn.example", changes: [expect.objectContaining({ change_type: 'changed' })] }),
    ]);
    await suite.call('PATCH', `/alerts/${alert.id}`, { status: 'resolved', note: 'CDN novo, aprovado' });
    const resolved = await eventually(() => get(`/reports/pci?store_id=${shop.id}`), (answer) => answer.body.data.summary_1161.alerts_open === 0);
    expect(resolved.body.data.alerts[0]).toMatchObject({ id: alert.id, status: 'resolved', resolved_by_label: `api:${suite.prefix}`, note: 'CDN novo, aprovado' });
  });

  it('is described by docs/report-data.schema.json (checked on a real report)', async () => {
    const schema = JSON.parse(readFileSync(join(__dirname, '../../../../docs/report-data.schema.json'), 'utf8'));
    const validate = addFormats(new Ajv({ allErrors: true, strict: true })).compile(schema);
    const { data } = (await get(`/reports/pci?store_id=${store.id}`)).body;
    expect(data.scripts.length && data.headers.length && data.policies.length).toBeTruthy();
    expect(validate(data) ? [] : validate.errors).toEqual([]);
    expect(validate({ ...data, summary_643: { ...data.summary_643, total: -1 } })).toBe(false);
  });

  it('answers the PDF with a 302 to a signed link valid one hour, rendered once', async () => {
    const snapshot = (await get(`/reports/pci?store_id=${store.id}&period_start=2026-11-16T00:00:00Z&period_end=2026-11-23T00:00:00Z&locale=en`)).body;
    const first = await get(`/reports/pci/snapshots/${snapshot.id}?format=pdf`);
    expect(first.status).toBe(302);
    const location = new URL(first.headers.location as string);
    expect(location.pathname).toBe(REPORT_FILES_PATH);
    expect(location.searchParams.get('name')).toMatch(/^pci-report_.+_20261116-20261123\.pdf$/);
    const links = suite.service.app.get(ReportFileLinks);
    const query = Object.fromEntries(location.searchParams);
    expect(links.verify(query.key, query)).toMatchObject({ valid: true, expiresAt: new Date('2026-11-23T13:00:00.000Z') });
    clock.advance(60 * 60 * 1000);
    expect(links.verify(query.key, query)).toEqual({ valid: false, reason: 'expired' });
    // The same period and locale through GET /reports/pci: the same snapshot, and its PDF already stored.
    const again = await get(`/reports/pci?store_id=${store.id}&period_start=2026-11-16T00:00:00Z&period_end=2026-11-23T00:00:00Z&locale=en&format=pdf`);
    expect(again.status).toBe(302);
    expect(new URL(again.headers.location as string).searchParams.get('sha256')).toBe(query.sha256);
  });

  it('streams a CSV table a spreadsheet opens safely', async () => {
    const answer = await get(`/reports/pci?store_id=${store.id}&format=csv&csv_table=scripts`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="pci-report_.+_scripts_\d{8}-\d{8}\.csv"$/);
    expect(answer.text.startsWith('\uFEFF')).toBe(true);
    const rows: string[][] = parse(answer.text, { bom: true, record_delimiter: '\r\n' });
    const json = (await get(`/reports/pci/snapshots/${(await get(`/reports/pci/snapshots?store_id=${store.id}&limit=1`)).body.data[0].id}`)).body;
    expect(rows).toHaveLength(1 + json.data.scripts.length);
    expect(rows.flat()).toContain('https://evil.example/skim.js');
    const headers = await get(`/reports/pci/snapshots/${json.id}?format=csv&csv_table=headers`);
    expect(headers.headers['content-disposition']).toContain('_headers_');
  });

  it('reuses the newest snapshot of exactly the same period, and makes a new one without either date or with regenerate=true', async () => {
    const period = `store_id=${store.id}&period_start=2026-11-01T00:00:00Z&period_end=${clock.now().toISOString()}`;
    const first = (await get(`/reports/pci?${period}`)).body;
    expect(first.data.summary_643.total).toBe(2);
    // A script appears after period_end: reports made later for that period must not show it.
    clock.advance(60_000);
    await suite.service.reportSdk(store.sdk_key, [{ kind: 'script', src: 'https://cdn.depois.example/late.js', hash: sri('late') }]);
    await eventually(() => get(`/reports/pci?store_id=${store.id}`), (reply) => reply.body.data.summary_643.total === 3);
    const again = (await get(`/reports/pci?${period}`)).body;
    expect(first.generated).toBe(true);
    expect(again).toMatchObject({ id: first.id, generated: false, sha256: first.sha256 });
    const [newest] = (await get(`/reports/pci/snapshots?store_id=${store.id}&limit=1`)).body.data;
    const forced = (await get(`/reports/pci?${period}&regenerate=true`)).body;
    // Its own data (report id, time) and the chain: it records the sha256 of the store's snapshot before it.
    expect(forced).toMatchObject({ generated: true, previous_sha256: newest.sha256 });
    expect(forced.id).not.toBe(first.id);
    // The as-of rule: the same past period made again shows the same inventory (only its own id and time differ).
    const withoutIdentity = ({ meta: { report_id: _id, generated_at: _at, ...meta }, ...rest }: any) => ({ ...rest, meta });
    expect(withoutIdentity(forced.data)).toEqual(withoutIdentity(first.data));
    const [a, b] = [(await get(`/reports/pci?store_id=${store.id}`)).body, (await get(`/reports/pci?store_id=${store.id}`)).body];
    expect(a.generated && b.generated && a.id !== b.id).toBe(true);
    // period_end alone names an exact period (period_start defaults to 7 days before it): reused too
    const endOnly = `store_id=${store.id}&period_end=2026-11-08T00:00:00Z`;
    const byEnd = (await get(`/reports/pci?${endOnly}`)).body;
    expect((await get(`/reports/pci?${endOnly}`)).body).toMatchObject({ id: byEnd.id, generated: false, period_start: '2026-11-01T00:00:00.000Z' });
    // A period not over yet is never reused: a snapshot made during it would stand for facts still to come.
    const unfinished = `store_id=${store.id}&period_end=${new Date(clock.now().getTime() + 3_600_000).toISOString()}`;
    const during = [(await get(`/reports/pci?${unfinished}`)).body, (await get(`/reports/pci?${unfinished}`)).body];
    expect(during.map((report) => report.generated)).toEqual([true, true]);
    clock.advance(2 * 3_600_000);
    const after = (await get(`/reports/pci?${unfinished}`)).body;
    expect([after.generated, (await get(`/reports/pci?${unfinished}`)).body.id]).toEqual([true, after.id]);
  });

  it('refuses bad queries with one detail per field', async () => {
    const details = async (query: string) => {
      const answer = await get(`/reports/pci?${query}`);
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('validation_error');
      return (answer.body.error.details as any[]).map((detail) => detail.field).sort();
    };
    expect(await details('')).toEqual(['store_id']);
    expect(await details(`store_id=${store.id}&period_start=yesterday&period_end=2026-13-01`)).toEqual(['period_end', 'period_start']);
    expect(await details(`store_id=${store.id}&format=xlsx&csv_table=users&locale=fr&regenerate=yes`)).toEqual(['csv_table', 'format', 'locale', 'regenerate']);
    expect(await details(`store_id=${store.id}&period_start=2026-11-20T00:00:00Z&period_end=2026-11-10T00:00:00Z`)).toEqual(['period_start']);
    expect(await details(`store_id=${store.id}&period_start=2025-11-01T00:00:00Z&period_end=2026-11-10T00:00:00Z`)).toEqual(['period_end']);
    // 366 days exactly is allowed.
    expect((await get(`/reports/pci?store_id=${store.id}&period_start=2025-11-09T00:00:00Z&period_end=2026-11-10T00:00:00Z`)).status).toBe(200);
  });

  it('keeps organizations apart, checks scopes and the plan', async () => {
    const other = await suite.service.tenant(SCOPES, { plan: 'growth', 'billing-mode': 'processor' });
    expect((await get(`/reports/pci?store_id=${store.id}`, other.token)).status).toBe(404);
    const snapshot = (await get(`/reports/pci/snapshots?store_id=${store.id}`)).body.data[0];
    expect((await get(`/reports/pci/snapshots/${snapshot.id}`, other.token)).status).toBe(404);
    expect((await get(`/reports/pci/snapshots?store_id=${store.id}`, other.token)).status).toBe(404);

    const essential = await suite.service.tenant(['stores:write', 'reports:read', 'reports:generate'], { plan: 'essential', 'billing-mode': 'processor' });
    const small = await suite.service.createStore(essential.token);
    const refused = await get(`/reports/pci?store_id=${small.id}`, essential.token);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('plan_limit');
    const essentialSchedule = await suite.service.request('POST', '/api/v1/reports/pci/schedule', { token: essential.token, body: { store_id: small.id, cadence: 'weekly' } });
    expect(essentialSchedule.body.error.code).toBe('plan_limit');
    const partner = await suite.service.tenant(['stores:write', 'reports:read'], { plan: 'essential', 'billing-mode': 'partner' });
    const partnerStore = await suite.service.createStore(partner.token);
    expect((await get(`/reports/pci?store_id=${partnerStore.id}`, partner.token)).status).toBe(200);
    const regenerate = await get(`/reports/pci?store_id=${partnerStore.id}&regenerate=true`, partner.token);
    expect(regenerate.status).toBe(403);
    expect(regenerate.body.error.code).toBe('insufficient_scope');
    // Each operation's one scope.
    const writer = await suite.service.tenant(['stores:write'], { plan: 'growth', 'billing-mode': 'processor' });
    for (const url of [`/reports/pci?store_id=${store.id}`, '/reports/pci/snapshots', `/reports/pci/snapshots/${snapshot.id}`, '/reports/pci/schedule']) {
      expect((await get(url, writer.token)).body.error.code).toBe('insufficient_scope');
    }
    const schedule = await suite.service.request('POST', '/api/v1/reports/pci/schedule', { token: partner.token, body: { store_id: partnerStore.id, cadence: 'weekly' } });
    expect(schedule.status).toBe(403);
    expect((await suite.service.request('DELETE', `/api/v1/reports/pci/schedule?store_id=${partnerStore.id}`, { token: partner.token })).status).toBe(403);
    expect((await get('/reports/pci')).status).toBe(400);
    expect((await suite.service.request('GET', '/api/v1/reports/pci')).status).toBe(401);
    expect((await get('/reports/pci/snapshots?cursor=not-a-cursor!')).status).toBe(400);
    expect((await get('/reports/pci/snapshots?kind=daily')).body.error.details).toEqual([expect.objectContaining({ field: 'kind' })]);
  });

  it('lists snapshots newest first, filtered by store and kind, and reads one by id', async () => {
    const page = (await get(`/reports/pci/snapshots?store_id=${store.id}&kind=on_demand&limit=2`)).body;
    expect(page.data).toHaveLength(2);
    expect(page.next_cursor).toEqual(expect.any(String));
    expect(page.data[0].created_at >= page.data[1].created_at).toBe(true);
    expect(page.data[0]).not.toHaveProperty('data');
    expect((await get(`/reports/pci/snapshots?kind=weekly`)).body.data).toEqual([]);
    const one = (await get(`/reports/pci/snapshots/${page.data[0].id}`)).body;
    expect(one).toMatchObject({ id: page.data[0].id, sha256: page.data[0].sha256, generated: false });
    expect(one.data.meta.report_id).toBe(one.id);
    expect((await get(`/reports/pci/snapshots/0193a5b0-0000-7000-8000-000000000000`)).status).toBe(404);
  });

  it('counts SDK activity in the week\'s periodic check, by whole hours', async () => {
    const shop = await suite.newStore();
    const hour = Math.ceil(clock.now().getTime() / 3_600_000) * 3_600_000;
    clock.set(new Date(hour + 60_000).toISOString());
    for (const session of ['a', 'b', 'c']) {
      await suite.service.reportSdk(shop.sdk_key, [{ kind: 'script', src: 'https://cdn.pagamentos.example/widget.js', hash: sri('widget') }], { session_id: session });
    }
    await suite.service.app.get(SightingsFlusher).run();
    // The hour of the batches is counted once it is over, and a report ending within it does not count it.
    const during = await get(`/reports/pci?store_id=${shop.id}`);
    expect(during.body.data.periodic_checks.at(-1).sdk_batches).toBe(0);
    clock.set(new Date(hour + 3_600_000).toISOString());
    const after = await eventually(() => get(`/reports/pci?store_id=${shop.id}`), (reply) => reply.body.data.periodic_checks.at(-1).sdk_batches === 3);
    expect(after.body.data.periodic_checks.at(-1)).toMatchObject({ sdk_batches: 3, no_monitoring: false });
    // Every page view's session: the three batches are three sessions (issue 29 counts them all, with their clients).
    expect(after.body.data.periodic_checks.at(-1)).toMatchObject({ sdk_sessions: 3, sdk_client_addresses: 1 });
  });

  it('counts a fact the bus delivers twice once (at least once delivery)', async () => {
    const shop = await suite.newStore();
    const hour = Math.ceil(clock.now().getTime() / 3_600_000) * 3_600_000;
    const consumer = suite.service.app.get(ReportFactsConsumer);
    const activity = (n: number) => ({
      id: `evt_sdk_${shop.id}_${n}`,
      type: 'inventory.sdk.activity' as const,
      version: 1,
      source: 'inventory',
      org_id: shop.org_id,
      store_id: shop.id,
      occurred_at: new Date(hour + n * 5_000).toISOString(),
      correlation_id: null,
      position: n,
      data: { store_id: shop.id, first_event_at: new Date(hour + n * 5_000 - 4_000).toISOString(), last_event_at: new Date(hour + n * 5_000).toISOString(), batches: 10, observations: 20, sessions: 1 },
    });
    for (const n of [1, 1, 2, 1, 2]) await consumer.record(activity(n));
    clock.set(new Date(hour + 3_600_000).toISOString());
    const report = (await get(`/reports/pci?store_id=${shop.id}`)).body.data;
    expect(report.periodic_checks.at(-1)).toMatchObject({ sdk_batches: 20, sdk_sessions: 2 });
  });

  it('counts the overlapping windows of two gateway replicas, each once (issue 33, D6)', async () => {
    const shop = await suite.newStore();
    const hour = Math.ceil(clock.now().getTime() / 3_600_000) * 3_600_000;
    const consumer = suite.service.app.get(ReportFactsConsumer);
    // Each gateway flushes its own 5 s window of the same store: the second ends before the first, arrives after it.
    const window = (gateway: string, first: number, last: number) => ({
      id: `evt_sdk_${shop.id}_${gateway}`,
      type: 'inventory.sdk.activity' as const,
      version: 1,
      source: 'inventory',
      org_id: shop.org_id,
      store_id: shop.id,
      occurred_at: new Date(hour + last).toISOString(),
      correlation_id: null,
      position: 1,
      data: { store_id: shop.id, first_event_at: new Date(hour + first).toISOString(), last_event_at: new Date(hour + last).toISOString(), batches: 10, observations: 20, sessions: 1 },
    });
    for (const fact of [window('a', 1_000, 5_000), window('b', 2_000, 4_000), window('a', 1_000, 5_000)]) await consumer.record(fact);
    clock.set(new Date(hour + 3_600_000).toISOString());
    const report = (await get(`/reports/pci?store_id=${shop.id}`)).body.data;
    expect(report.periodic_checks.at(-1)).toMatchObject({ sdk_batches: 20, sdk_sessions: 2 });
  });
});
