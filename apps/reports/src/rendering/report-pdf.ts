import {
  labelsFor,
  valueLabel,
  type DataAccess,
  type Figures,
  type PageObserved,
  type PeriodicCheck,
  type ReportAlert,
  type ReportConnection,
  type ReportData,
  type ReportHeader,
  type ReportLabels,
  type ReportLocale,
  type ReportPolicy,
  type ReportScript,
} from '@pss/report-files';
import { PdfLayout, type Column } from './pdf-layout';
import { reportDates, type ReportDates } from './report-dates';

/** What the PDF shows of the snapshot around the data: its identity and the proof of its integrity. */
export interface ReportPdfSnapshot {
  id: string;
  sha256: string | null;
  kind: string;
  created_at: string;
  generated_by: string;
  locale: ReportLocale;
  /** The store's IANA time zone; dates show in it and in UTC. */
  timezone: string;
}

interface Context {
  data: ReportData;
  snapshot: ReportPdfSnapshot;
  labels: ReportLabels;
  dates: ReportDates;
  numbers: Intl.NumberFormat;
}

/**
 * The report as a PDF for the assessor: a cover with the snapshot's identity and sha256, then 6.4.3 (summary,
 * scripts), 11.6.1 (summary, headers, alerts), the weekly checks, sensitive data access and the policies. Every
 * label in the snapshot's locale, every date in the store's time zone and in UTC.
 */
export async function renderReportPdf(data: ReportData, snapshot: ReportPdfSnapshot): Promise<Buffer> {
  const labels = labelsFor(snapshot.locale);
  const context: Context = {
    data,
    snapshot,
    labels,
    dates: reportDates(snapshot.locale, snapshot.timezone),
    numbers: new Intl.NumberFormat(snapshot.locale),
  };
  const layout = new PdfLayout(
    {
      title: `${labels.title} — ${data.meta.domain}`,
      subject: labels.subtitle,
      author: 'Payment Page Script Security',
      keywords: `PCI DSS, 6.4.3, 11.6.1, ${data.meta.domain}, ${snapshot.id}`,
      createdAt: new Date(snapshot.created_at),
      lang: snapshot.locale,
    },
    labels.truncated,
    {
      header: `${labels.title} — ${data.meta.store.name} (${data.meta.domain})`,
      footer: `${data.meta.domain} · ${labels.cover.snapshotId}: ${snapshot.id}${snapshot.sha256 ? ` · SHA-256 ${snapshot.sha256.slice(0, 16)}…` : ''}`,
      pageLabel: labels.page,
    },
  );
  return layout.render(async () => {
    cover(layout, context);
    layout.newPage();
    await requirement643(layout, context);
    layout.newPage();
    await requirement1161(layout, context);
    layout.newPage();
    await periodicChecks(layout, context);
    await pagesObserved(layout, context);
    await dataAccess(layout, context);
    await policies(layout, context);
  });
}

function cover(layout: PdfLayout, { data, snapshot, labels, dates }: Context): void {
  const { cover: words } = labels;
  layout.title(labels.title, labels.subtitle);
  layout.keyValues([
    [words.store, data.meta.store.name],
    [words.domain, data.meta.domain],
    [words.period, `${dates.local(data.scope.period_start)} — ${dates.local(data.scope.period_end)} (${dates.timezone})`],
    [words.periodUtc, `${dates.utc(data.scope.period_start)} — ${dates.utc(data.scope.period_end)}`],
    [words.paymentPages, data.scope.payment_pages.join('\n') || words.none],
    [words.kind, valueLabel(labels.values, snapshot.kind)],
    [words.generatedAt, `${dates.local(snapshot.created_at)} (${dates.timezone}) · ${dates.utc(snapshot.created_at)}`],
    [words.generatedBy, snapshot.generated_by],
    [words.snapshotId, snapshot.id],
    [words.schemaVersion, String(data.meta.schema_version)],
  ]);
  layout.heading(words.sha256, 2);
  layout.paragraph(snapshot.sha256 ?? '—', { bold: true, size: 11 });
  layout.paragraph(words.sha256Explained, { muted: true });
  layout.paragraph(words.timezoneNote(dates.timezone), { muted: true });
}

/**
 * A requirement's heading, what its section shows, and its summary: each figure with one line saying what it
 * counts. A figure the snapshot lacks (made before it was added) is left out.
 */
async function requirementSummary<Key extends string>(
  layout: PdfLayout,
  { labels, numbers }: Context,
  heading: string,
  intro: string,
  figures: Figures<Key>,
  counts: Partial<Record<Key, number>>,
): Promise<void> {
  layout.heading(heading);
  layout.paragraph(intro, { muted: true });
  const shown = (Object.keys(figures) as Key[]).filter((key) => counts[key] !== undefined);
  const c = labels.figureColumns;
  await layout.table(
    [
      { header: c.figure, width: 0.25, cell: (key: Key) => figures[key].label },
      { header: c.value, width: 0.1, cell: (key: Key) => numbers.format(counts[key]!), align: 'right' },
      { header: c.counts, width: 0.65, cell: (key: Key) => figures[key].counts },
    ],
    shown,
    { empty: labels.sections.empty },
  );
}

async function requirement643(layout: PdfLayout, context: Context): Promise<void> {
  const { data, labels } = context;
  await requirementSummary(layout, context, labels.sections.req643, labels.sections.req643Intro, labels.summary643, data.summary_643);
  layout.heading(labels.sections.scripts, 2);
  await layout.table(scriptColumns(context), data.scripts, { empty: labels.sections.empty });
  await connections(layout, context);
}

/** Beside the scripts, where they send: snapshots made before connections were reported have no such section. */
async function connections(layout: PdfLayout, { data, labels, dates }: Context): Promise<void> {
  if (!data.connections) return;
  const c = labels.columns;
  layout.heading(labels.connections.heading, 2);
  layout.paragraph(labels.connections.intro, { muted: true });
  const columns: Column<ReportConnection>[] = [
    { header: c.destination, width: 0.26, cell: (row) => row.origin },
    { header: c.via, width: 0.1, cell: (row) => row.via.join(', ') },
    { header: c.initiators, width: 0.34, cell: (row) => row.initiators.join(' ') || '—' },
    { header: c.firstSeen, width: 0.15, cell: (row) => dates.utc(row.first_seen_at) },
    { header: c.lastSeen, width: 0.15, cell: (row) => dates.utc(row.last_seen_at) },
  ];
  await layout.table(columns, data.connections, { empty: labels.sections.empty });
}

function scriptColumns({ labels, dates, numbers }: Context): Column<ReportScript>[] {
  const c = labels.columns;
  return [
    { header: c.script, width: 0.21, cell: (s) => `${s.src}\n${c.seen}: ${dates.day(s.first_seen_at)} — ${dates.day(s.last_seen_at)}` },
    { header: `${c.party} / ${c.category}`, width: 0.08, cell: (s) => [valueLabel(labels.values, s.party), s.category, s.vendor_id].filter(Boolean).join('\n') },
    {
      header: `${c.status} / ${c.integrity}`,
      width: 0.08,
      cell: (s) => [valueLabel(labels.values, s.status), valueLabel(labels.values, s.integrity_status), s.hash_changes_in_period ? `${c.hashChanges}: ${numbers.format(s.hash_changes_in_period)}` : ''].filter(Boolean).join('\n'),
    },
    { header: c.justification, width: 0.15, cell: (s) => s.justification ?? '—' },
    {
      header: `${c.authorizedBy} / ${c.authorizedAt}`,
      width: 0.16,
      cell: (s) =>
        [s.authorized_by, dates.both(s.authorized_at), s.authorization_method ? `${c.method}: ${valueLabel(labels.values, s.authorization_method)}${s.policy_version ? ` v${s.policy_version}` : ''}` : ''].filter(Boolean).join('\n') || '—',
    },
    { header: c.expiresAt, width: 0.1, cell: (s) => dates.both(s.expires_at) || '—' },
    { header: c.hashes, width: 0.22, cell: (s) => scriptHashes(s, labels) },
  ];
}

/** The hashes, each value once: equal ones share a line (`current = authorized = SRI: sha384-…`). */
function scriptHashes(script: ReportScript, labels: ReportLabels): string {
  const c = labels.columns;
  const named: Array<[string, string | null]> = [
    [c.authorizedHash, script.authorized_hash],
    [c.currentHash, script.current_hash],
    [c.sriHash, script.sri_hash],
  ];
  const byValue = new Map<string, string[]>();
  for (const [name, value] of named) if (value) byValue.set(value, [...(byValue.get(value) ?? []), name]);
  const lines = [...byValue].map(([value, names]) => `${names.join(' = ')}: ${value}`);
  if (script.integrity_attr !== null) lines.push(`${c.integrityAttr}: ${script.integrity_attr ? labels.yes : labels.no}`);
  return lines.join('\n') || '—';
}

async function requirement1161(layout: PdfLayout, context: Context): Promise<void> {
  const { data, labels } = context;
  const { events_by_kind: kinds, ...summary } = data.summary_1161;
  await requirementSummary(layout, context, labels.sections.req1161, labels.sections.req1161Intro, labels.summary1161, { ...summary, ...kinds });
  layout.heading(labels.sections.headers, 2);
  // Snapshots made before declared_page have only the payment pages' rows.
  const undeclared = data.headers.filter((row) => row.declared_page === false);
  await layout.table(headerColumns(context), data.headers.filter((row) => row.declared_page !== false), { empty: labels.sections.empty });
  if (undeclared.length) {
    layout.heading(labels.sections.undeclaredHeaders, 2);
    layout.paragraph(labels.sections.undeclaredHeadersIntro, { muted: true });
    await layout.table(headerColumns(context), undeclared, { empty: labels.sections.empty });
  }
  layout.heading(labels.sections.alerts, 2);
  layout.paragraph(labels.alertsCounts, { muted: true });
  await layout.table(alertColumns(context), data.alerts, { empty: labels.sections.empty, highlight: (alert) => alert.status === 'open' && ['critical', 'high'].includes(alert.severity) });
}

function headerColumns({ labels, dates }: Context): Column<ReportHeader>[] {
  const c = labels.columns;
  const shown = (value: string | null) => value ?? labels.absent;
  return [
    { header: `${c.page} / ${c.header}`, width: 0.14, cell: (h) => `${h.page}\n${h.name}` },
    { header: c.baseline, width: 0.24, cell: (h) => `${shown(h.baseline)}${h.baseline_at ? `\n${c.baselineAt}: ${dates.both(h.baseline_at)}` : ''}` },
    { header: c.lastValue, width: 0.24, cell: (h) => shown(h.last_value) },
    {
      header: c.changes,
      width: 0.38,
      cell: (h) =>
        h.changes.map((change) => `${dates.both(change.at)} · ${valueLabel(labels.values, change.change_type)}: ${shown(change.old_value)} → ${shown(change.new_value)}`).join('\n') || '—',
    },
  ];
}

function alertColumns({ labels, dates, numbers }: Context): Column<ReportAlert>[] {
  const c = labels.columns;
  return [
    { header: `${c.type}\n${c.severity} · ${c.status}`, width: 0.17, cell: (a) => `${valueLabel(labels.values, a.type)}\n${valueLabel(labels.values, a.severity)} · ${valueLabel(labels.values, a.status)}` },
    { header: `${c.source}\n${c.page}`, width: 0.25, cell: (a) => [a.source, a.page].filter(Boolean).join('\n') || '—' },
    { header: c.occurrences, width: 0.08, cell: (a) => numbers.format(a.occurrences), align: 'right' },
    { header: `${c.firstSeen}\n${c.lastSeen}`, width: 0.17, cell: (a) => `${dates.both(a.first_seen_at)}\n${dates.both(a.last_seen_at)}` },
    { header: `${c.resolvedAt}\n${c.resolvedBy}`, width: 0.17, cell: (a) => [dates.both(a.resolved_at), a.resolved_by_label].filter(Boolean).join('\n') || '—' },
    { header: c.note, width: 0.16, cell: (a) => a.note ?? '' },
  ];
}

async function periodicChecks(layout: PdfLayout, { data, labels, dates, numbers }: Context): Promise<void> {
  const c = labels.columns;
  layout.heading(labels.sections.periodicChecks);
  layout.paragraph(labels.sections.periodicChecksIntro, { muted: true });
  layout.paragraph(labels.weeksWithoutMonitoring(data.periodic_checks.filter((week) => week.no_monitoring).length), { bold: true });
  const count = (value: number) => numbers.format(value);
  const columns: Column<PeriodicCheck>[] = [
    { header: c.week, width: 0.28, cell: (w) => `${dates.utc(w.week_start)} — ${dates.utc(w.week_end)}` },
    { header: c.sdkSessions, width: 0.12, cell: (w) => `${count(w.sdk_sessions)} / ${count(w.sdk_client_addresses)}`, align: 'right' },
    { header: c.sdkBatches, width: 0.12, cell: (w) => count(w.sdk_batches), align: 'right' },
    { header: c.pagesMonitored, width: 0.12, cell: (w) => count(w.pages_monitored), align: 'right' },
    { header: c.headerChecks, width: 0.14, cell: (w) => count(w.header_checks), align: 'right' },
    { header: c.monitoring, width: 0.22, cell: (w) => (w.no_monitoring ? labels.noMonitoring : labels.monitored) },
  ];
  await layout.table(columns, data.periodic_checks, { empty: labels.sections.empty, highlight: (week) => week.no_monitoring });
  for (const line of Object.values(labels.periodicChecksCounts)) layout.paragraph(line, { muted: true });
}

/** Snapshots made before pages were observed have no such section. */
async function pagesObserved(layout: PdfLayout, { data, labels, numbers }: Context): Promise<void> {
  if (!data.pages_observed) return;
  const words = labels.pagesObserved;
  layout.heading(words.heading);
  layout.paragraph(words.intro(data.pages_observed.length, data.summary_1161.pages_observed ?? data.pages_observed.length), { muted: true });
  const columns: Column<PageObserved>[] = [
    { header: labels.columns.page, width: 0.8, cell: (p) => p.page },
    { header: words.batches, width: 0.2, cell: (p) => numbers.format(p.batches), align: 'right' },
  ];
  await layout.table(columns, data.pages_observed, { empty: labels.sections.empty });
}

async function dataAccess(layout: PdfLayout, { data, labels, dates, numbers }: Context): Promise<void> {
  const c = labels.columns;
  layout.heading(labels.sections.dataAccess);
  layout.paragraph(labels.sections.dataAccessIntro, { muted: true });
  const columns: Column<DataAccess>[] = [
    { header: c.script, width: 0.36, cell: (a) => a.src },
    { header: c.fieldClass, width: 0.12, cell: (a) => valueLabel(labels.fieldClasses, a.field_class) },
    { header: c.accesses, width: 0.09, cell: (a) => numbers.format(a.accesses), align: 'right' },
    { header: c.status, width: 0.11, cell: (a) => (a.script_authorized ? valueLabel(labels.values, 'authorized') : labels.notAuthorized) },
    { header: c.firstSeen, width: 0.16, cell: (a) => dates.both(a.first_at) },
    { header: c.lastSeen, width: 0.16, cell: (a) => dates.both(a.last_at) },
  ];
  await layout.table(columns, data.data_access, { empty: labels.sections.empty, highlight: (access) => !access.script_authorized });
}

async function policies(layout: PdfLayout, { data, labels, numbers }: Context): Promise<void> {
  const c = labels.columns;
  layout.heading(labels.sections.policies);
  const columns: Column<ReportPolicy>[] = [
    { header: c.name, width: 0.3, cell: (p) => `${p.name}\n${p.id}` },
    { header: c.scope, width: 0.14, cell: (p) => (p.store_id === null ? labels.organizationLevel : labels.storeLevel) },
    { header: c.version, width: 0.07, cell: (p) => String(p.version), align: 'right' },
    { header: `${c.mode} / ${c.action}`, width: 0.16, cell: (p) => `${valueLabel(labels.values, p.mode)}\n${valueLabel(labels.values, p.action)}` },
    { header: c.active, width: 0.07, cell: (p) => (p.active ? labels.yes : labels.no) },
    { header: c.priority, width: 0.08, cell: (p) => String(p.priority), align: 'right' },
    { header: c.decisionsInPeriod, width: 0.18, cell: (p) => numbers.format(p.decisions_in_period), align: 'right' },
  ];
  await layout.table(columns, data.policies, { empty: labels.sections.empty });
}
