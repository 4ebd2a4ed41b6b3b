import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { isDeclaredPage } from '@pss/contracts';
import { REPORT_SCHEMA_VERSION, type PageObserved, type PeriodicCheck, type ReportData, type ReportHeader, type ReportLocale } from '@pss/report-files';
import { ReportFold, WEEK_MS, weekStartOf, type ReportFact, type ReportPeriod } from './report-fold';

/** SDK activity of one whole UTC hour (reports counts it by hour: see docs/reports.md). */
export interface SdkHour {
  hour_start: string;
  batches: number;
  observations: number;
  sessions: number;
  /** Absent from hours counted before issue 29. */
  clients?: number;
}

/** Batches from one page path in one whole UTC hour. */
export interface SdkPageHour {
  path: string;
  batches: number;
}

/** The busiest pages a report lists; `summary_1161.pages_observed` says how many there were in all. */
export const PAGES_OBSERVED_LISTED = 100;

export interface ReportRequest {
  reportId: string;
  storeId: string;
  periodStart: string;
  periodEnd: string;
  locale: ReportLocale;
  /** The snapshot's created_at. */
  generatedAt: string;
}

export interface ReportSources {
  /** The store's and its organization's facts, oldest first, in pages (so a large store is folded in slices). */
  facts: AsyncIterable<ReportFact[]>;
  /** Hours that lie wholly within the period. */
  sdkHours: SdkHour[];
  /** Batches by page path of the same hours (none: no page was observed). */
  sdkPages?: SdkPageHour[];
}

const HOUR_MS = 60 * 60 * 1000;
/** Rows folded or mapped between two yields to the event loop. */
const SLICE = 2000;

/**
 * The report's data as of period_end. Large stores (thousands of scripts, a year of activity) are folded page
 * by page, yielding to the event loop between pages, so a report never holds the process for long.
 */
export async function buildReport(request: ReportRequest, sources: ReportSources): Promise<ReportData> {
  const period: ReportPeriod = { start: Date.parse(request.periodStart), end: Date.parse(request.periodEnd) };
  const fold = new ReportFold(request.storeId, period);
  for await (const page of sources.facts) {
    for (let index = 0; index < page.length; index += 1) {
      fold.apply(page[index]);
      if (index % SLICE === SLICE - 1) await yieldToEventLoop();
    }
  }
  fold.settleAlerts();
  await yieldToEventLoop();

  // Each section is built apart, yielding between them: a large store's sections take tens of milliseconds each.
  const store = fold.store;
  const scripts = [...fold.scripts.values()].sort((a, b) => compare(a.first_seen_at, b.first_seen_at) || compare(a.id, b.id));
  const authorized = new Set(scripts.filter((script) => isAuthorized(script.status)).map((script) => script.id));
  const summary643 = {
    total: scripts.length,
    authorized: authorized.size,
    blocked: scripts.filter((script) => script.status === 'blocked').length,
    needs_review: scripts.filter((script) => !isAuthorized(script.status) && script.status !== 'blocked').length,
    expired: scripts.filter((script) => script.expired).length,
  };
  const scriptRows = scripts.map(({ expired: _expired, ...script }) => script);
  await yieldToEventLoop();
  const alerts = [...fold.alerts.values()].filter((alert) => alert.opened_in_period || alert.status === 'open');
  const openedInPeriod = alerts.filter((alert) => alert.opened_in_period);
  const alertRows = alerts.map(({ opened_in_period: _opened, ...alert }) => alert).sort((a, b) => compare(b.first_seen_at, a.first_seen_at) || compare(a.id, b.id));
  await yieldToEventLoop();
  const dataAccess = [...fold.dataAccess.values()]
    .map((access) => ({ ...access, script_authorized: authorized.has(access.script_id) }))
    .sort((a, b) => compare(a.src, b.src) || compare(a.field_class, b.field_class));
  await yieldToEventLoop();
  const pages = pagesObserved(sources.sdkPages ?? []);

  return {
    meta: {
      report_id: request.reportId,
      store: {
        id: request.storeId,
        name: store?.name ?? '',
        org_id: store?.org_id ?? '',
        timezone: store?.timezone ?? 'America/Sao_Paulo',
        status: store?.status ?? 'active',
        ...(store ? { created_at: store.created_at } : {}),
      },
      domain: store?.domain ?? '',
      schema_version: REPORT_SCHEMA_VERSION,
      generated_at: request.generatedAt,
      locale: request.locale,
    },
    scope: {
      period_start: request.periodStart,
      period_end: request.periodEnd,
      payment_pages: [...(store?.payment_pages ?? [])],
      requirements: ['6.4.3', '11.6.1'],
    },
    summary_643: summary643,
    summary_1161: {
      events: Object.values(fold.changeEvents).reduce((sum, count) => sum + count, 0),
      events_by_kind: { ...fold.changeEvents },
      alerts_total: openedInPeriod.length,
      alerts_open: openedInPeriod.filter((alert) => alert.status === 'open').length,
      pages_observed: pages.length,
    },
    scripts: scriptRows,
    connections: [...fold.connections.values()].sort((a, b) => compare(a.first_seen_at, b.first_seen_at) || compare(a.origin, b.origin)),
    headers: headerRows(fold, store?.payment_pages ?? []),
    alerts: alertRows,
    policies: [...fold.policies.values()].sort((a, b) => a.priority - b.priority || compare(a.id, b.id)),
    // A store is monitored from its creation: the weeks before it cannot have been.
    periodic_checks: periodicChecks({ start: Math.max(period.start, store ? Date.parse(store.created_at) : period.start), end: period.end }, fold, sources.sdkHours),
    data_access: dataAccess,
    pages_observed: pages.slice(0, PAGES_OBSERVED_LISTED),
  };
}

/** The payment pages' headers first, then those of paths the store never declared (issue 29); by page, then name. */
function headerRows(fold: ReportFold, paymentPages: readonly string[]): ReportHeader[] {
  const rows = [...fold.headers.values()].flatMap((page) => [...page.values.values()]).map((row) => ({ ...row, declared_page: isDeclaredPage(row.page, paymentPages) }));
  return rows.sort((a, b) => Number(b.declared_page) - Number(a.declared_page) || compare(a.page, b.page) || compare(a.name, b.name));
}

/** Page paths the SDK reported from in the period, busiest first (then by path, so the order is stable). */
function pagesObserved(hours: SdkPageHour[]): PageObserved[] {
  const batches = new Map<string, number>();
  for (const hour of hours) batches.set(hour.path, (batches.get(hour.path) ?? 0) + hour.batches);
  return [...batches].map(([page, count]) => ({ page, batches: count })).sort((a, b) => b.batches - a.batches || compare(a.page, b.page));
}

/** Code-unit order: the same everywhere (no locale), and far cheaper than localeCompare on thousands of rows. */
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** `trusted` (first-party scripts the store trusts) counts as authorized, as the inventory shows it. */
const isAuthorized = (status: string): boolean => status === 'authorized' || status === 'trusted';

/**
 * One row per week (Monday 00:00 UTC to the next Monday) overlapping the monitored span, clipped to it: what
 * monitored the payment pages that week. A week with nothing at all is flagged: it breaks "at least weekly".
 * A span that starts after it ends (the store was created after the period) has no rows.
 */
function periodicChecks(monitored: ReportPeriod, fold: ReportFold, sdkHours: SdkHour[]): PeriodicCheck[] {
  const rows: PeriodicCheck[] = [];
  if (monitored.start > monitored.end) return rows;
  const byWeek = new Map<number, SdkHour[]>();
  for (const hour of sdkHours) {
    const week = weekStartOf(Date.parse(hour.hour_start));
    const hours = byWeek.get(week);
    if (hours) hours.push(hour);
    else byWeek.set(week, [hour]);
  }
  for (let week = weekStartOf(monitored.start); week < monitored.end || rows.length === 0; week += WEEK_MS) {
    const hours = byWeek.get(week) ?? [];
    const facts = fold.weeks.get(week);
    const batches = hours.reduce((sum, hour) => sum + hour.batches, 0);
    const row: PeriodicCheck = {
      week_start: new Date(Math.max(week, monitored.start)).toISOString(),
      week_end: new Date(Math.min(week + WEEK_MS, monitored.end)).toISOString(),
      // Distinct per flush window, summed: a session or address seen in two windows counts twice.
      sdk_sessions: hours.reduce((sum, hour) => sum + hour.sessions, 0),
      sdk_client_addresses: hours.reduce((sum, hour) => sum + (hour.clients ?? 0), 0),
      sdk_batches: batches,
      pages_monitored: facts?.pages.size ?? 0,
      header_checks: facts?.headerChecks ?? 0,
      no_monitoring: false,
    };
    // Only page views monitor: header checks and signals can come from any client holding the public key. A
    // week of no time (the store created at the period's end) had nothing to monitor.
    row.no_monitoring = row.sdk_batches === 0 && row.week_end > row.week_start;
    rows.push(row);
  }
  return rows;
}

export const hourStartOf = (ms: number): number => ms - (ms % HOUR_MS);
export { HOUR_MS };
