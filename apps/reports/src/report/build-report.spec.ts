import { alertFact, alertOccurredFact, alertStatusFact, decided, fact, pages, scriptDetected, STORE, storeCreated } from '../facts/testing/facts';
import { buildReport, type ReportRequest, type SdkHour } from './build-report';
import type { ReportFact } from './report-fold';

// Monday 2026-11-09 00:00 UTC to Monday 2026-11-23 00:00 UTC: two weeks.
const request: ReportRequest = {
  reportId: 'r1',
  storeId: STORE,
  periodStart: '2026-11-09T00:00:00.000Z',
  periodEnd: '2026-11-23T00:00:00.000Z',
  locale: 'pt-BR',
  generatedAt: '2026-11-23T09:00:00.000Z',
};

const history: ReportFact[] = [
  storeCreated('2026-10-01T10:00:00.000Z'),
  scriptDetected('a', '2026-10-02T10:00:00.000Z'),
  decided('inventory.script.authorized', 'a', '2026-10-03T10:00:00.000Z'),
  scriptDetected('b', '2026-11-10T10:00:00.000Z'),
  decided('inventory.script.blocked', 'b', '2026-11-10T11:00:00.000Z'),
  scriptDetected('c', '2026-10-05T10:00:00.000Z'),
  decided('inventory.script.authorized', 'c', '2026-10-05T11:00:00.000Z', { expires_at: '2026-11-11T00:00:00.000Z' }),
  decided('inventory.script.review-requested', 'c', '2026-11-11T00:05:00.000Z', { method: 'expiry' }),
  scriptDetected('d', '2026-11-12T10:00:00.000Z'),
  fact('inventory.headers.baselined', '2026-10-01T12:00:00.000Z', { store_id: STORE, page: '/checkout', headers: { 'content-security-policy': "default-src 'self'" }, at: '2026-10-01T12:00:00.000Z' }),
  fact('inventory.headers.changed', '2026-11-11T12:00:00.000Z', {
    store_id: STORE,
    page: '/checkout',
    page_url: 'https://loja.example/checkout',
    changes: [
      { name: 'content-security-policy', change_type: 'changed', old_value: "default-src 'self'", new_value: '*' },
      { name: 'x-frame-options', change_type: 'added', old_value: null, new_value: 'DENY' },
    ],
    at: '2026-11-11T12:00:00.000Z',
  }),
  alertFact('alerts.alert.created', '2026-11-11T12:00:01.000Z', { id: 'al1' }),
  alertFact('alerts.alert.created', '2026-11-11T12:00:02.000Z', { id: 'al2', type: 'SDK_SILENT' }),
  alertFact('alerts.alert.resolved', '2026-11-12T12:00:00.000Z', { id: 'al2', status: 'resolved', resolved_at: '2026-11-12T12:00:00.000Z', resolved_by_label: 'system' }),
  fact('inventory.sensitive-field.accessed', '2026-11-12T13:00:00.000Z', { store_id: STORE, page_url: 'https://loja.example/checkout', session_id: 's', at: '2026-11-12T13:00:00.000Z', script_id: 'a', src: 'https://cdn.example/a.js', field: 'card_number', script_authorized: true }),
  fact('inventory.sensitive-field.accessed', '2026-11-12T14:00:00.000Z', { store_id: STORE, page_url: 'https://loja.example/checkout', session_id: 's', at: '2026-11-12T14:00:00.000Z', script_id: 'a', src: 'https://cdn.example/a.js', field: 'card_number', script_authorized: true }),
  // After period_end: the report does not see it.
  scriptDetected('late', '2026-11-23T00:00:00.001Z'),
  decided('inventory.script.blocked', 'a', '2026-11-24T10:00:00.000Z'),
];

const noEvents = { new_scripts: 0, hash_changes: 0, header_changes: 0, csp_violations: 0, unexpected_iframes: 0, recipient_mismatches: 0 };

const sdkHours: SdkHour[] = [{ hour_start: '2026-11-10T14:00:00.000Z', batches: 12, observations: 40, sessions: 3, clients: 2 }];

describe('report builder', () => {
  it('counts scripts by their status as of period_end (6.4.3)', async () => {
    const data = await buildReport(request, { facts: pages(history), sdkHours });
    expect(data.summary_643).toEqual({ total: 4, authorized: 1, blocked: 1, needs_review: 2, expired: 1 });
    const a = data.scripts.find((script) => script.id === 'a')!;
    expect(a).toMatchObject({ status: 'authorized', justification: 'Analytics do checkout, revisado', authorization_method: 'manual', authorized_hash: 'sha384-a' });
    expect(a.decisions).toHaveLength(1);
    expect(data.scripts.map((script) => script.id)).not.toContain('late');
  });

  it('lists the connections beside the scripts, each with how, where and by what it was reached, as of period_end', async () => {
    const sighting = (type: 'inventory.connection.detected' | 'inventory.connection.seen', at: string, change: object) =>
      fact(type, at, { connection_id: 'c1', store_id: STORE, origin: 'https://api.psp.example', via: 'fetch', page: null, initiator: null, at, ...change } as never);
    const psp = { script_id: 'a', src: 'https://cdn.example/a.js' };
    const facts = [
      ...history,
      sighting('inventory.connection.detected', '2026-11-10T10:00:00.000Z', { page: '/checkout', initiator: psp, page_url: 'https://loja.example/checkout', session_id: 's', sensitive_read: null }),
      sighting('inventory.connection.seen', '2026-11-12T10:00:00.000Z', { via: 'beacon', page: '/pay' }),
      // After period_end: the report does not see it.
      sighting('inventory.connection.seen', '2026-11-24T10:00:00.000Z', { page: '/late' }),
    ];
    const data = await buildReport(request, { facts: pages(facts), sdkHours });
    expect(data.connections).toEqual([
      { origin: 'https://api.psp.example', via: ['fetch', 'beacon'], pages: ['/checkout', '/pay'], initiators: [psp.src], first_seen_at: '2026-11-10T10:00:00.000Z', last_seen_at: '2026-11-12T10:00:00.000Z' },
    ]);
  });

  it('names the store by the identity it was created with when the period ends before it existed', async () => {
    const before = { ...request, periodStart: '2026-09-01T00:00:00.000Z', periodEnd: '2026-09-08T00:00:00.000Z' };
    const data = await buildReport(before, { facts: pages(history), sdkHours: [] });
    const created = await buildReport(request, { facts: pages(history), sdkHours });
    expect(data.meta.domain).not.toBe('');
    expect([data.meta.domain, data.meta.store]).toEqual([created.meta.domain, created.meta.store]);
    expect([data.summary_643.total, data.scripts]).toEqual([0, []]);
  });

  it('shows a script that read a sensitive field while awaiting review as suspicious, still awaiting a decision', async () => {
    const suspicious = fact('inventory.script.suspicious', '2026-11-12T15:00:00.000Z', { script_id: 'd', store_id: STORE, field: 'card_number', at: '2026-11-12T15:00:00.000Z' });
    const data = await buildReport(request, { facts: pages([...history, suspicious]), sdkHours });
    expect(data.scripts.find((script) => script.id === 'd')?.status).toBe('suspicious');
    expect(data.summary_643).toEqual({ total: 4, authorized: 1, blocked: 1, needs_review: 2, expired: 1 });
  });

  it('reports header baselines and changes, alerts and 11.6.1 events of the period', async () => {
    const data = await buildReport(request, { facts: pages(history), sdkHours });
    // Detections b and d, two header changes.
    expect(data.summary_1161).toEqual({ events: 4, events_by_kind: { ...noEvents, new_scripts: 2, header_changes: 2 }, alerts_total: 2, alerts_open: 1, pages_observed: 0 });
    expect(data.headers).toEqual([
      expect.objectContaining({ name: 'content-security-policy', baseline: "default-src 'self'", last_value: '*', changes: [expect.objectContaining({ change_type: 'changed' })] }),
      expect.objectContaining({ name: 'x-frame-options', baseline: null, last_value: 'DENY' }),
    ]);
    expect(data.data_access).toEqual([expect.objectContaining({ script_id: 'a', field_class: 'card_number', accesses: 2, script_authorized: true })]);
  });

  it('sees alerts resolved and reopened by a person as of period_end, whatever order the facts came in', async () => {
    const byPerson = [
      // The organization's facts are folded before the store's: the resolution comes before its alert.
      alertStatusFact('al1', 'resolved', '2026-11-13T08:00:00.000Z', 'Falso positivo: CSP do fornecedor'),
      alertStatusFact('al1', 'open', '2026-11-25T08:00:00.000Z'),
      ...history,
    ];
    const data = await buildReport(request, { facts: pages(byPerson), sdkHours });
    expect(data.summary_1161).toMatchObject({ events: 4, alerts_total: 2, alerts_open: 0 });
    expect(data.alerts.find((alert) => alert.id === 'al1')).toMatchObject({
      status: 'resolved',
      resolved_at: '2026-11-13T08:00:00.000Z',
      resolved_by_label: 'api:pss_live_abcdefghijklmnopqrstuvwx',
      note: 'Falso positivo: CSP do fornecedor',
    });
  });

  it('counts each kind of change event apart, one per detection, however many alerts group them', async () => {
    const signal = (type: 'inventory.csp.violation' | 'inventory.iframe.unexpected' | 'inventory.recipient.mismatched', at: string) =>
      fact(type, at, { store_id: STORE, page_url: 'https://loja.example/checkout', session_id: 's', at } as never);
    const hashChanged = fact('inventory.script.hash-changed', '2026-11-13T10:00:00.000Z', {
      script_id: 'a', store_id: STORE, page_url: 'https://loja.example/checkout', old_hash: 'sha384-a', new_hash: 'sha384-a2', authorized_hash: 'sha384-a', integrity_status: 'mismatch', changed_at: '2026-11-13T10:00:00.000Z',
    } as never);
    const signals = [signal('inventory.csp.violation', '2026-11-13T11:00:00.000Z'), signal('inventory.csp.violation', '2026-11-13T11:01:00.000Z'), signal('inventory.iframe.unexpected', '2026-11-13T12:00:00.000Z'), signal('inventory.recipient.mismatched', '2026-11-13T13:00:00.000Z')];
    const data = await buildReport(request, { facts: pages([...history, hashChanged, ...signals]), sdkHours });
    expect(data.summary_1161).toMatchObject({
      events: 9,
      events_by_kind: { new_scripts: 2, hash_changes: 1, header_changes: 2, csp_violations: 2, unexpected_iframes: 1, recipient_mismatches: 1 },
    });
  });

  it('counts an alert\'s further occurrences and its last sighting as the alerts service does, as of period_end', async () => {
    const recurring = [
      // An occurrence recorded before its alert named a store: the organization's stream, folded first.
      alertOccurredFact('al1', '2026-11-11T13:00:00.000Z', null),
      ...history,
      alertOccurredFact('al1', '2026-11-14T09:00:00.000Z'),
      alertOccurredFact('al1', '2026-11-12T09:00:00.000Z'),
      alertOccurredFact('al1', '2026-11-23T00:00:01.000Z'),
      alertOccurredFact('other-store-alert', '2026-11-14T09:00:00.000Z'),
    ];
    const data = await buildReport(request, { facts: pages(recurring), sdkHours });
    expect(data.alerts.find((alert) => alert.id === 'al1')).toMatchObject({ occurrences: 4, first_seen_at: '2026-11-11T12:00:01.000Z', last_seen_at: '2026-11-14T09:00:00.000Z' });
    expect(data.alerts.find((alert) => alert.id === 'al2')).toMatchObject({ occurrences: 1 });
    expect(data.alerts.map((alert) => alert.id)).not.toContain('other-store-alert');
    const twice = recurring.flatMap((item) => [item, item]);
    expect(await buildReport(request, { facts: pages(twice), sdkHours })).toEqual(data);
  });

  it('gives the same data for a past period however much happened since (the as-of rule)', async () => {
    const then = await buildReport(request, { facts: pages(history.slice(0, -2)), sdkHours });
    const now = await buildReport(request, { facts: pages(history), sdkHours });
    expect(now).toEqual(then);
  });

  it('counts a fact delivered twice once', async () => {
    const twice = history.flatMap((item) => [item, item]);
    expect(await buildReport(request, { facts: pages(twice), sdkHours })).toEqual(await buildReport(request, { facts: pages(history), sdkHours }));
  });

  it('has one row per week, with the sessions and addresses behind its page views, and flags the weeks without any', async () => {
    const data = await buildReport({ ...request, periodEnd: '2026-11-30T00:00:00.000Z' }, { facts: pages(history), sdkHours });
    const row = { sdk_sessions: 0, sdk_client_addresses: 0, sdk_batches: 0 };
    expect(data.periodic_checks).toEqual([
      { week_start: '2026-11-09T00:00:00.000Z', week_end: '2026-11-16T00:00:00.000Z', sdk_sessions: 3, sdk_client_addresses: 2, sdk_batches: 12, pages_monitored: 1, header_checks: 1, no_monitoring: false },
      { week_start: '2026-11-16T00:00:00.000Z', week_end: '2026-11-23T00:00:00.000Z', ...row, pages_monitored: 0, header_checks: 0, no_monitoring: true },
      // A signal from a page is a claim anyone with the public key can make: no page view, no monitoring (issue 29).
      { week_start: '2026-11-23T00:00:00.000Z', week_end: '2026-11-30T00:00:00.000Z', ...row, pages_monitored: 1, header_checks: 0, no_monitoring: true },
    ]);
  });

  it('lists the page paths the SDK reported from, busiest first, at most 100, and says how many there were', async () => {
    const sdkPages = [
      { path: '/checkout', batches: 5 },
      { path: '/carrinho', batches: 7 },
      { path: '/checkout', batches: 4 },
      ...Array.from({ length: 120 }, (_, n) => ({ path: `/produto/${n}`, batches: 1 })),
    ];
    const data = await buildReport(request, { facts: pages(history), sdkHours, sdkPages });
    expect(data.pages_observed?.slice(0, 3)).toEqual([
      { page: '/checkout', batches: 9 },
      { page: '/carrinho', batches: 7 },
      { page: '/produto/0', batches: 1 },
    ]);
    expect(data.pages_observed).toHaveLength(100);
    expect(data.summary_1161.pages_observed).toBe(122);
  });

  it('starts the weekly rows at the store\'s creation, and has none when it was created after the period', async () => {
    const created = '2026-11-04T15:30:00.000Z';
    const young = [storeCreated(created), ...history.slice(1)];
    const data = await buildReport({ ...request, periodStart: '2026-10-19T00:00:00.000Z', periodEnd: '2026-11-16T00:00:00.000Z' }, { facts: pages(young), sdkHours });
    expect(data.meta.store.created_at).toBe(created);
    expect(data.periodic_checks.map((row) => [row.week_start, row.week_end])).toEqual([
      [created, '2026-11-09T00:00:00.000Z'],
      ['2026-11-09T00:00:00.000Z', '2026-11-16T00:00:00.000Z'],
    ]);
    const before = await buildReport({ ...request, periodStart: '2026-10-19T00:00:00.000Z', periodEnd: '2026-10-26T00:00:00.000Z' }, { facts: pages(young), sdkHours: [] });
    expect(before.periodic_checks).toEqual([]);
  });

  it('clips the first and last week to the period', async () => {
    const data = await buildReport({ ...request, periodStart: '2026-11-11T06:00:00.000Z', periodEnd: '2026-11-18T06:00:00.000Z' }, { facts: pages(history), sdkHours: [] });
    expect(data.periodic_checks.map((row) => [row.week_start, row.week_end])).toEqual([
      ['2026-11-11T06:00:00.000Z', '2026-11-16T00:00:00.000Z'],
      ['2026-11-16T00:00:00.000Z', '2026-11-18T06:00:00.000Z'],
    ]);
  });
});
