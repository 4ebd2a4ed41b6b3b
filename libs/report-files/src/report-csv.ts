import { Readable } from 'node:stream';
import { CSV_BOM, csvLine, type CsvCell } from '@pss/kernel';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { CsvTable, ReportAlert, ReportConnection, ReportData, ReportHeader, ReportLocale, ReportScript } from './report-data';
import { labelsFor, type ReportLabels } from './labels';

/**
 * One table of a report as CSV for a spreadsheet (RFC 4180): UTF-8 with a byte order mark (so Excel reads the
 * accents), CRLF line ends, a header row in the report's language, values as the JSON has them (status codes,
 * ISO 8601 UTC times: sortable, and the same words as the API). Script URLs, justifications and notes come from
 * outside: a text cell that a spreadsheet would run as a formula is neutralized (OWASP CSV injection, `csvCell`).
 */
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

interface CsvColumn<Row> {
  header(labels: ReportLabels): string;
  value(row: Row): CsvCell;
}

const ROWS_PER_CHUNK = 500;

/** The table streamed: the header row first, then slices of rows, yielding to the event loop between slices. */
export function reportCsv(data: ReportData, table: CsvTable, locale: ReportLocale): Readable {
  return Readable.from(csvChunks(data, table, locale), { objectMode: false });
}

export async function* csvChunks(data: ReportData, table: CsvTable, locale: ReportLocale): AsyncGenerator<string> {
  switch (table) {
    case 'scripts':
      yield* rows(SCRIPT_COLUMNS, data.scripts, locale);
      return;
    case 'connections':
      yield* rows(CONNECTION_COLUMNS, data.connections ?? [], locale);
      return;
    case 'headers':
      yield* rows(HEADER_COLUMNS, data.headers, locale);
      return;
    case 'alerts':
      yield* rows(ALERT_COLUMNS, data.alerts, locale);
      return;
  }
}

async function* rows<Row>(columns: CsvColumn<Row>[], items: readonly Row[], locale: ReportLocale): AsyncGenerator<string> {
  const labels = labelsFor(locale);
  yield `${CSV_BOM}${csvLine(columns.map((column) => column.header(labels)))}`;
  for (let start = 0; start < items.length; start += ROWS_PER_CHUNK) {
    if (start > 0) await yieldToEventLoop();
    let chunk = '';
    for (const item of items.slice(start, start + ROWS_PER_CHUNK)) chunk += csvLine(columns.map((column) => column.value(item)));
    yield chunk;
  }
}

const SCRIPT_COLUMNS: CsvColumn<ReportScript>[] = [
  { header: (l) => l.columns.id, value: (s) => s.id },
  { header: (l) => l.columns.script, value: (s) => s.src },
  { header: (l) => l.columns.inline, value: (s) => s.inline },
  { header: (l) => l.columns.party, value: (s) => s.party },
  { header: (l) => l.columns.category, value: (s) => s.category },
  { header: (l) => l.columns.vendor, value: (s) => s.vendor_id },
  { header: (l) => l.columns.status, value: (s) => s.status },
  { header: (l) => l.columns.integrity, value: (s) => s.integrity_status },
  { header: (l) => l.columns.justification, value: (s) => s.justification },
  { header: (l) => l.columns.method, value: (s) => s.authorization_method },
  { header: (l) => l.columns.authorizedBy, value: (s) => s.authorized_by },
  { header: (l) => `${l.columns.authorizedAt} (UTC)`, value: (s) => s.authorized_at },
  { header: (l) => `${l.columns.expiresAt} (UTC)`, value: (s) => s.expires_at },
  { header: (l) => l.columns.policy, value: (s) => s.policy_id },
  { header: (l) => l.columns.policyVersion, value: (s) => s.policy_version },
  { header: (l) => l.columns.currentHash, value: (s) => s.current_hash },
  { header: (l) => l.columns.authorizedHash, value: (s) => s.authorized_hash },
  { header: (l) => l.columns.sriHash, value: (s) => s.sri_hash },
  { header: (l) => l.columns.integrityAttr, value: (s) => s.integrity_attr },
  { header: (l) => `${l.columns.firstSeen} (UTC)`, value: (s) => s.first_seen_at },
  { header: (l) => `${l.columns.lastSeen} (UTC)`, value: (s) => s.last_seen_at },
  { header: (l) => l.columns.hashChanges, value: (s) => s.hash_changes_in_period },
  {
    header: (l) => l.columns.decisions,
    value: (s) => s.decisions.map((d) => `${d.at} ${d.action} (${d.method}) ${d.by}${d.justification ? `: ${d.justification}` : ''}`).join('\n') || null,
  },
];

const CONNECTION_COLUMNS: CsvColumn<ReportConnection>[] = [
  { header: (l) => l.columns.destination, value: (c) => c.origin },
  { header: (l) => l.columns.via, value: (c) => c.via.join('\n') },
  { header: (l) => l.columns.page, value: (c) => c.pages.join('\n') || null },
  { header: (l) => l.columns.initiators, value: (c) => c.initiators.join('\n') || null },
  { header: (l) => `${l.columns.firstSeen} (UTC)`, value: (c) => c.first_seen_at },
  { header: (l) => `${l.columns.lastSeen} (UTC)`, value: (c) => c.last_seen_at },
];

const HEADER_COLUMNS: CsvColumn<ReportHeader>[] = [
  { header: (l) => l.columns.page, value: (h) => h.page },
  { header: (l) => l.columns.header, value: (h) => h.name },
  { header: (l) => l.columns.baseline, value: (h) => h.baseline },
  { header: (l) => `${l.columns.baselineAt} (UTC)`, value: (h) => h.baseline_at },
  { header: (l) => l.columns.lastValue, value: (h) => h.last_value },
  { header: (l) => l.columns.changesCount, value: (h) => h.changes.length },
  {
    header: (l) => l.columns.changes,
    value: (h) => h.changes.map((c) => `${c.at} ${c.change_type}: ${c.old_value ?? '∅'} → ${c.new_value ?? '∅'}`).join('\n') || null,
  },
  { header: (l) => l.columns.declaredPage, value: (h) => h.declared_page ?? null },
];

const ALERT_COLUMNS: CsvColumn<ReportAlert>[] = [
  { header: (l) => l.columns.id, value: (a) => a.id },
  { header: (l) => l.columns.type, value: (a) => a.type },
  { header: (l) => l.columns.severity, value: (a) => a.severity },
  { header: (l) => l.columns.status, value: (a) => a.status },
  { header: (l) => l.columns.source, value: (a) => a.source },
  { header: (l) => l.columns.page, value: (a) => a.page },
  { header: (l) => l.columns.occurrences, value: (a) => a.occurrences },
  { header: (l) => `${l.columns.firstSeen} (UTC)`, value: (a) => a.first_seen_at },
  { header: (l) => `${l.columns.lastSeen} (UTC)`, value: (a) => a.last_seen_at },
  { header: (l) => `${l.columns.resolvedAt} (UTC)`, value: (a) => a.resolved_at },
  { header: (l) => l.columns.resolvedBy, value: (a) => a.resolved_by_label },
  { header: (l) => l.columns.note, value: (a) => a.note },
];
