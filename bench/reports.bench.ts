import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ALERT_TOPICS, INVENTORY_TOPICS as T, reportBodyKey, reportBodyOf, reportDataJson, type AlertResource } from '@pss/contracts';
import { SqliteEventStore, type NewEvent } from '@pss/event-store';
import { DataDirFileStore } from '@pss/files';
import { canonicalJsonInSlices, parseJsonInSlices, reportCsv, sha256Hex, type ReportData } from '@pss/report-files';
import { ReportFacts } from '@pss/reports/src/facts/report-facts';
import { orgFactsStream, storeFactsStream, type ReportFactEvent } from '@pss/reports/src/facts/report-facts.events';
import { buildReport, type SdkHour } from '@pss/reports/src/report/build-report';
import type { ReportFact } from '@pss/reports/src/report/report-fold';
import { renderReportPdf } from '@pss/reports/src/rendering/report-pdf';
import type { BenchRow } from './report';
import { collectGarbage, log, QUICK, withTempDir } from './support';

/**
 * Benchmark 6 (reports): the PCI report of a large store over 366 days, as GET /reports/pci makes it. The store
 * has 5,000 scripts (each detected and authorized with a justification), 10,000 alerts (half resolved again),
 * weekly header changes, 20,000 sensitive-field accesses and a year of SDK activity (every hour). Measured: the
 * JSON report (facts read from the SQLite event store and folded, canonical JSON hashed, data stored in the file
 * store, the response body serialized) and its PDF; and the longest the event loop was held during each
 * (`perf_hooks.monitorEventLoopDelay`), which must stay under 100 ms. Aims: JSON ≤ 1 s, PDF ≤ 5 s.
 */

const SCRIPTS = QUICK ? 500 : 5000;
const ALERTS = QUICK ? 1000 : 10000;
const FIELD_ACCESSES = QUICK ? 2000 : 20000;
const STORE = '0193a5b0-0000-7000-8000-000000000001';
const ORG = '0193a5b0-0000-7000-8000-0000000000aa';
const PERIOD_END = Date.parse('2026-11-23T00:00:00.000Z');
const PERIOD_START = PERIOD_END - 366 * 24 * 3600_000;
const HOUR = 3600_000;

let sequence = 0;
function fact(type: string, at: number, data: Record<string, unknown>, source = 'inventory'): ReportFact {
  sequence += 1;
  return {
    id: `evt_${sequence}`,
    type,
    version: 1,
    source,
    org_id: ORG,
    store_id: STORE,
    occurred_at: new Date(at).toISOString(),
    correlation_id: null,
    position: sequence,
    data,
  } as ReportFact;
}

/** A year of a busy store's facts, oldest first. */
function storeHistory(): ReportFact[] {
  const facts: ReportFact[] = [
    fact(T.storeCreated, PERIOD_START - HOUR, { store_id: STORE, org_id: ORG, domain: 'loja-grande.com.br', name: 'Loja Grande São Paulo', timezone: 'America/Sao_Paulo', payment_pages: ['/checkout', '/checkout/pagamento/*'], sdk_config: {}, created_at: new Date(PERIOD_START).toISOString() }),
  ];
  const span = PERIOD_END - PERIOD_START;
  for (let n = 0; n < SCRIPTS; n += 1) {
    const at = PERIOD_START + Math.floor((span * n) / SCRIPTS);
    const scriptId = `0193a5b0-0000-7000-8001-${String(n).padStart(12, '0')}`;
    const src = `https://cdn${n % 40}.fornecedor.example/lib/${n}/widget.min.js?v=${n}`;
    facts.push(fact(T.scriptDetected, at, { script_id: scriptId, store_id: STORE, src, inline: false, host: `cdn${n % 40}.fornecedor.example`, type: 'known_third', category: 'payments', vendor_id: null, status: 'needs_review', hash: `sha384-${Buffer.from(`h${n}`).toString('base64').padEnd(64, 'A')}`, page_url: 'https://loja-grande.com.br/checkout', session_id: `s${n}`, detected_at: new Date(at).toISOString() }));
    facts.push(fact(T.scriptAuthorized, at + HOUR, { script_id: scriptId, store_id: STORE, method: 'manual', by: 'api:pss_live_abcdefghijklmnopqrstuvwx', justification: `Widget de parcelamento nº ${n}: necessário para o pagamento, revisado pela equipe de segurança`, policy_id: null, policy_version: null, at: new Date(at + HOUR).toISOString(), authorized_hash: null, expires_at: null }));
  }
  for (let n = 0; n < ALERTS; n += 1) {
    const at = PERIOD_START + Math.floor((span * n) / ALERTS) + 2 * HOUR;
    const alert: AlertResource = { id: `0193a5b0-0000-7000-8002-${String(n).padStart(12, '0')}`, org_id: ORG, store_id: STORE, type: 'CSP_VIOLATION', change_type: null, severity: 'medium', status: 'open', source: `https://evil${n}.example/x.js`, page: '/checkout', details: null, fingerprint: `f${n}`, occurrences: 1 + (n % 7), sessions_count: 1, first_seen_at: new Date(at).toISOString(), last_seen_at: new Date(at).toISOString(), resolved_at: null, resolved_by_label: null, note: null, snoozed_until: null, auto_resolved: false, created_at: new Date(at).toISOString() };
    facts.push(fact(ALERT_TOPICS.created, at, { ...alert }, 'alerts'));
    if (n % 2) facts.push(fact(ALERT_TOPICS.resolved, at + HOUR, { ...alert, status: 'resolved', resolved_at: new Date(at + HOUR).toISOString(), resolved_by_label: 'system' }, 'alerts'));
  }
  for (let week = 0; week < 52; week += 1) {
    const at = PERIOD_START + week * 7 * 24 * HOUR + 5 * HOUR;
    facts.push(fact(T.headersChanged, at, { store_id: STORE, page: '/checkout', page_url: 'https://loja-grande.com.br/checkout', changes: [{ name: 'content-security-policy', change_type: 'changed', old_value: `script-src 'self' v${week}`, new_value: `script-src 'self' v${week + 1}` }], at: new Date(at).toISOString() }));
  }
  for (let n = 0; n < FIELD_ACCESSES; n += 1) {
    const at = PERIOD_START + Math.floor((span * n) / FIELD_ACCESSES) + 3 * HOUR;
    const script = n % SCRIPTS;
    facts.push(fact(T.sensitiveFieldAccessed, at, { store_id: STORE, page_url: 'https://loja-grande.com.br/checkout', session_id: `s${n}`, at: new Date(at).toISOString(), script_id: `0193a5b0-0000-7000-8001-${String(script).padStart(12, '0')}`, src: `https://cdn${script % 40}.fornecedor.example/lib/${script}/widget.min.js?v=${script}`, field: ['card_number', 'cvv', 'expiry', 'document'][n % 4], script_authorized: true }));
  }
  return facts.sort((a, b) => a.occurred_at.localeCompare(b.occurred_at));
}

const sdkYear = (): SdkHour[] =>
  Array.from({ length: 366 * 24 }, (_, hour) => ({ hour_start: new Date(PERIOD_START + hour * HOUR).toISOString(), batches: 40 + (hour % 17), observations: 300, sessions: 12 }));

interface Timed<T> {
  value: T;
  ms: number;
  /** CPU time of this process while it ran: what the work costs, less moved by the neighbours than `ms`. */
  cpuMs: number;
  /** Longest the event loop was held while it ran. */
  maxBlockedMs: number;
}

async function timed<T>(work: () => Promise<T>): Promise<Timed<T>> {
  collectGarbage();
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const started = performance.now();
  const cpu = process.cpuUsage();
  const value = await work();
  const ms = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  delay.disable();
  return { value, ms, cpuMs: (user + system) / 1000, maxBlockedMs: delay.max / 1e6 };
}

/** The least disturbed of `runs` runs (the machine is shared): the fastest, and separately the least blocked. */
async function bestOf<T>(runs: number, work: () => Promise<T>): Promise<Timed<T>> {
  const results: Timed<T>[] = [];
  for (let run = 0; run < runs; run += 1) results.push(await timed(work));
  const fastest = results.reduce((a, b) => (b.ms < a.ms ? b : a));
  return { ...fastest, maxBlockedMs: Math.min(...results.map((result) => result.maxBlockedMs)) };
}

export async function reportsBench(): Promise<BenchRow[]> {
  return withTempDir('reports', async (dir) => {
    const eventStore = SqliteEventStore.open(join(dir, 'events.sqlite'));
    const files = new DataDirFileStore(join(dir, 'files'));
    try {
      log(`reports: writing a year of facts (${SCRIPTS} scripts, ${ALERTS} alerts)...`);
      const history = storeHistory();
      const recorded = (item: ReportFact): NewEvent => ({ type: 'ReportFactRecorded', data: { fact: item } satisfies ReportFactEvent['data'] });
      for (let index = 0; index < history.length; index += 1000) await eventStore.append(storeFactsStream(STORE), history.slice(index, index + 1000).map(recorded));
      await eventStore.append(orgFactsStream(ORG), [recorded(fact(T.policyCreated, PERIOD_START, { policy_id: 'p1', store_id: null, name: 'Fornecedores de pagamento', active: true, mode: 'automatic', priority: 10, action: 'authorize', version: 1, is_default: true, created_at: new Date(PERIOD_START).toISOString() }))]);
      const facts = new ReportFacts(eventStore);
      const sdkHours = sdkYear();
      const request = { reportId: '0193a5b0-7c1e-7d2a-9f00-5e1f2a3b4c5d', storeId: STORE, periodStart: new Date(PERIOD_START).toISOString(), periodEnd: new Date(PERIOD_END).toISOString(), locale: 'pt-BR' as const, generatedAt: new Date(PERIOD_END).toISOString() };

      const own = { report_id: request.reportId, generated_at: request.generatedAt };
      log('reports: JSON report, best of 3...');
      const json = await bestOf(3, async () => {
        const data = await buildReport(request, { facts: facts.factsOf(STORE, ORG), sdkHours });
        // As the generator does it: the body (shared by equal reports) stored, the whole data hashed.
        const canonical = await canonicalJsonInSlices({ ...reportBodyOf(data) });
        const sha256 = sha256Hex(await reportDataJson(canonical, own));
        await files.put(reportBodyKey(sha256Hex(canonical)), Buffer.from(canonical, 'utf8'), 'application/json');
        // What the gateway does with it: read it back, put the snapshot's own meta back, splice it into the response body.
        const stored = await files.get(reportBodyKey(sha256Hex(canonical)));
        const body = `${JSON.stringify({ id: request.reportId, sha256 }).slice(0, -1)},"data":${await reportDataJson(stored!.bytes.toString('utf8'), own)}}`;
        return { data, sha256, bodyKey: reportBodyKey(sha256Hex(canonical)), bytes: body.length };
      });
      log(`reports: JSON ${json.ms.toFixed(0)} ms (CPU ${json.cpuMs.toFixed(0)} ms), ${(json.value.bytes / 2 ** 20).toFixed(1)} MiB, event loop held at most ${json.maxBlockedMs.toFixed(1)} ms`);

      log('reports: PDF, best of 2...');
      const snapshot = { id: request.reportId, sha256: json.value.sha256, kind: 'on_demand', created_at: request.generatedAt, generated_by: 'api:pss_live_abcdefghijklmnopqrstuvwx', locale: 'pt-BR' as const, timezone: 'America/Sao_Paulo' };
      // As the service does it: the stored data read back and parsed (in slices), then rendered.
      const storedData = async (): Promise<ReportData> => parseJsonInSlices<ReportData>(await reportDataJson((await files.get(json.value.bodyKey))!.bytes.toString('utf8'), own));
      const pdf = await bestOf(QUICK ? 1 : 2, async () => renderReportPdf(await storedData(), snapshot));
      log(`reports: PDF ${pdf.ms.toFixed(0)} ms (CPU ${pdf.cpuMs.toFixed(0)} ms), ${(pdf.value.length / 2 ** 20).toFixed(1)} MiB, event loop held at most ${pdf.maxBlockedMs.toFixed(1)} ms`);

      log('reports: CSV of the scripts, best of 3...');
      const csv = await bestOf(3, async () => {
        let bytes = 0;
        for await (const chunk of reportCsv(await storedData(), 'scripts', 'pt-BR')) bytes += (chunk as Buffer | string).length;
        return bytes;
      });
      log(`reports: CSV ${csv.ms.toFixed(0)} ms, event loop held at most ${csv.maxBlockedMs.toFixed(1)} ms`);

      const scale = `${SCRIPTS} scripts, ${ALERTS} alerts, a year of SDK activity`;
      const row = (name: string, measured: number, aim?: string): BenchRow => ({ id: '6', name, unit: 'ms', measured, baseline: null, higherIsBetter: false, baselineLabel: aim ? `none: aim ${aim}` : 'none: a figure to record' });
      return [
        row(`366-day PCI report as JSON (${scale}): facts folded, canonical JSON hashed and stored, response body`, json.ms, '≤ 1000 ms'),
        row('… CPU time of the process for it', json.cpuMs, '≤ 1000 ms'),
        row('… event loop held at most, while making the JSON report', json.maxBlockedMs, '≤ 100 ms'),
        row(`Its PDF (PDFKit, embedded fonts), ${(pdf.value.length / 2 ** 20).toFixed(1)} MiB: data read back and parsed in slices, rendered`, pdf.ms, '≤ 5000 ms'),
        row('… CPU time of the process for it', pdf.cpuMs, '≤ 5000 ms'),
        row('… event loop held at most, while rendering the PDF', pdf.maxBlockedMs, '≤ 100 ms'),
        row(`Its scripts table as CSV (${SCRIPTS} rows): data read back and parsed in slices, streamed`, csv.ms),
        row('… event loop held at most, while streaming the CSV', csv.maxBlockedMs, '≤ 100 ms'),
      ];
    } finally {
      await files.close();
      await eventStore.close();
    }
  });
}
