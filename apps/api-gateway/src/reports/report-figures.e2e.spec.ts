import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, itWithPoppler, ManualClock } from '@pss/testkit';
import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';
import { SightingsFlusher } from '../sdk/intake/sightings-flusher';

const SCOPES = ['stores:read', 'stores:write', 'scripts:read', 'reports:read', 'reports:generate', 'alerts:read'];

/**
 * A shop's first hour, as its assessor reads the report of it: every figure is what the API says for the same
 * instant. An alert recurs through SDK batches from two pages; the report must count its occurrences and its
 * last sighting as GET /alerts/{id} does, list the pages the SDK saw, and start its weeks at the store's creation.
 */
describe('PCI report figures against the API (HTTP, embedded)', () => {
  const clock = new ManualClock('2026-11-23T12:00:00.000Z');
  const RECURRENCES = 5;
  const SHOP_SCRIPT = { kind: 'script', src: 'https://www.loja.com.br/static/app.js', hash: `sha384-${createHash('sha384').update('app').digest('base64')}`, hash_source: 'sdk' };
  let service: EmbeddedHarness;
  let token: string;
  let store: any;
  let directory: string;

  const get = (url: string) => service.request('GET', `/api/v1${url}`, { token });

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'pss-figures-'));
    service = await EmbeddedHarness.start({ clock });
    ({ token } = await service.tenant(SCOPES, { plan: 'growth', 'billing-mode': 'processor' }));
    store = await service.createStore(token, { timezone: 'America/Sao_Paulo' });
    const pages = [`https://www.${store.domain}/checkout?step=pay`, `https://www.${store.domain}/carrinho`];
    for (let n = 0; n < RECURRENCES; n += 1) {
      clock.advance(60_000);
      const violation = { kind: 'csp_violation', directive: 'script-src', blocked_uri: 'https://cdn.evil.example/x.js' };
      // A page view: the shop's own script beside the violation (a violation alone is no monitoring, issue 29).
      await service.reportSdk(store.sdk_key, [violation, SHOP_SCRIPT], { page_url: pages[n % 2], session_id: `shopper-${n}` }, `203.0.113.${n}`);
    }
    await service.app.get(SightingsFlusher).run();
    await eventually(() => get(`/alerts?store_id=${store.id}`), (answer) => answer.body.data?.[0]?.occurrences === RECURRENCES);
    // The SDK's hour is counted once it is over.
    clock.set('2026-11-23T13:30:00.000Z');
  });
  afterAll(async () => {
    await service?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('shows each alert with the occurrences, first and last seen that GET /alerts/{id} shows', async () => {
    const report = await eventually(
      () => get(`/reports/pci?store_id=${store.id}`),
      (answer) => answer.body.data?.alerts?.[0]?.occurrences === RECURRENCES,
    );
    const listed = (await get(`/alerts?store_id=${store.id}`)).body.data as any[];
    expect(report.body.data.alerts).toHaveLength(listed.length);
    for (const reported of report.body.data.alerts) {
      const { occurrences, first_seen_at, last_seen_at, status } = (await get(`/alerts/${reported.id}`)).body;
      expect(reported).toMatchObject({ occurrences, first_seen_at, last_seen_at, status });
    }
    expect(report.body.data.alerts[0].last_seen_at).not.toBe(report.body.data.alerts[0].first_seen_at);
    expect(report.body.data.summary_1161).toMatchObject({
      events: RECURRENCES + 1,
      events_by_kind: { new_scripts: 1, hash_changes: 0, header_changes: 0, csp_violations: RECURRENCES, unexpected_iframes: 0, recipient_mismatches: 0 },
      alerts_total: 1,
    });
  });

  it('lists the page paths the SDK observed, without their query, and starts the weeks at the store\'s creation', async () => {
    const { status, body: created } = await get(`/stores/${store.id}`);
    expect([status, created.created_at]).toEqual([200, expect.any(String)]);
    const { data } = (await get(`/reports/pci?store_id=${store.id}`)).body;
    expect(data.pages_observed).toEqual([
      { page: '/checkout', batches: 3 },
      { page: '/carrinho', batches: 2 },
    ]);
    expect(data.summary_1161.pages_observed).toBe(2);
    expect(data.meta.store.created_at).toBe(created.created_at);
    expect(data.periodic_checks).toEqual([
      expect.objectContaining({ week_start: created.created_at, sdk_batches: RECURRENCES, sdk_sessions: RECURRENCES, sdk_client_addresses: RECURRENCES, no_monitoring: false }),
    ]);
    // A period wholly before the store existed has no week to flag.
    const before = (await get(`/reports/pci?store_id=${store.id}&period_start=2026-11-01T00:00:00Z&period_end=2026-11-08T00:00:00Z`)).body.data;
    expect(before.periodic_checks).toEqual([]);
  });

  itWithPoppler('the report figures in the PDF')('prints the same figures in the PDF, each with what it counts, and the pages observed', async () => {
    const snapshot = (await get(`/reports/pci?store_id=${store.id}&locale=en`)).body;
    const redirect = await get(`/reports/pci/snapshots/${snapshot.id}?format=pdf`);
    expect(redirect.status).toBe(302);
    const location = new URL(redirect.headers.location as string);
    const file = await service.app.getHttpAdapter().getInstance().inject({ method: 'GET', url: `${location.pathname}${location.search}` });
    const path = join(directory, 'report.pdf');
    writeFileSync(path, file.rawPayload);
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', path, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    const [alert] = snapshot.data.alerts;
    // The alert's row: its occurrences, first and last seen (the API's, by the first test).
    expect([alert.first_seen_at, alert.last_seen_at]).toEqual(['2026-11-23T12:01:00.000Z', '2026-11-23T12:05:00.000Z']);
    expect(text).toContain(`${RECURRENCES} Nov 23, 2026 09:01 (12:01 UTC) Nov 23, 2026 09:05 (12:05 UTC)`);
    expect(text).toContain(`Changes detected ${RECURRENCES + 1} Each detection in the period counts once`);
    expect(text).toContain(`CSP violations ${RECURRENCES} Content-Security-Policy violation reports received.`);
    expect(text).toContain('Occurrences: how many times the alert was seen');
    expect(text).toContain('Pages observed by the SDK');
    expect(text).toContain('/checkout 3');
    expect(text).toContain('/carrinho 2');
    expect(text).toContain('Every week was monitored.');
  });
});
