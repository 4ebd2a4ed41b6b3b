import { isHttpUrl, MAX_URL_LENGTH, structureProblem } from '@pss/contracts';
import { validationError } from '@pss/kernel';
import { checkItems, isPageUrl, pageOf, type CheckedItems, type Rejection, MAX_REJECTIONS_LISTED } from './sdk-batch';

/** A browser's report-to queue sends a few reports at once; more than this in one POST is not a browser. */
export const MAX_CSP_REPORTS = 100;

/** The observations of one page, as the SDK would have sent them. */
export interface CspPage extends CheckedItems {
  pageUrl: string;
}

export interface CheckedCspReports {
  pages: CspPage[];
  accepted: number;
  rejected: number;
  rejections: Rejection[];
}

/**
 * Browser-native CSP reports (`report-uri`: `{"csp-report": {...}}` as `application/csp-report`; `report-to`: an
 * array of `{type: "csp-violation", url, body: {...}}` as `application/reports+json`) turned into the SDK's
 * observations: a `csp_violation` for each, and a `script` sighting (no hash) when a script URL was refused, so
 * a Report-Only policy feeds the inventory even on a page without the SDK. Each report is checked on its own;
 * `index` in a rejection is the report's index.
 */
export function checkCspReports(parsed: unknown): CheckedCspReports {
  const reports = Array.isArray(parsed) ? parsed : [parsed];
  if (reports.length === 0 || reports.length > MAX_CSP_REPORTS) {
    throw validationError([{ message: `a CSP report body holds 1 to ${MAX_CSP_REPORTS} reports` }]);
  }
  const byPage = new Map<string, { items: unknown[]; indexes: number[] }>();
  const rejections: Rejection[] = [];
  let rejected = 0;
  reports.forEach((report, index) => {
    const violation = readReport(report);
    if (typeof violation === 'string') {
      rejected += 1;
      if (rejections.length < MAX_REJECTIONS_LISTED) rejections.push({ index, reason: violation });
      return;
    }
    const page = byPage.get(violation.pageUrl) ?? { items: [], indexes: [] };
    byPage.set(violation.pageUrl, page);
    for (const item of violation.items) {
      page.items.push(item);
      page.indexes.push(index);
    }
  });
  const pages = [...byPage].map(([pageUrl, { items, indexes }]) => ({ pageUrl, ...checkItems(items, (position) => indexes[position]) }));
  for (const page of pages) {
    rejected += page.rejected;
    rejections.push(...page.rejections.slice(0, MAX_REJECTIONS_LISTED - rejections.length));
  }
  return { pages, accepted: pages.reduce((sum, page) => sum + page.accepted.length, 0), rejected, rejections };
}

type Fields = Record<string, unknown>;
const isRecord = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const firstText = (...values: unknown[]): string | undefined => values.find((v): v is string => typeof v === 'string' && v.length > 0);

/** The page and its observations, or why the report is refused. */
function readReport(report: unknown): { pageUrl: string; items: unknown[] } | string {
  if (!isRecord(report)) return 'a report must be an object';
  const problem = structureProblem(report, 'report');
  if (problem) return problem;
  let fields: Fields;
  if (isRecord(report['csp-report'])) fields = legacyFields(report['csp-report']);
  else if (report.type === 'csp-violation' && isRecord(report.body)) fields = reportingFields(report.body, report.url);
  else return 'not a CSP violation report (csp-report or type csp-violation)';
  const pageUrl = firstText(fields.documentURL);
  if (!isPageUrl(pageUrl)) return 'the document URL must be an http(s) URL, without control characters';
  const directive = firstText(fields.effectiveDirective, fields.violatedDirective);
  const blockedUri = fitting(firstText(fields.blockedURL) ?? 'unknown');
  if (blockedUri === undefined) return `the blocked URL is longer than ${MAX_URL_LENGTH} characters, even without its query`;
  const sentSourceFile = firstText(fields.sourceFile);
  const sourceFile = fitting(sentSourceFile);
  if (sourceFile === undefined && sentSourceFile !== undefined) return `the source file is longer than ${MAX_URL_LENGTH} characters, even without its query`;
  const violation = { kind: 'csp_violation', directive, blocked_uri: blockedUri, source_file: sourceFile };
  const refusedScript = directive !== undefined && /^script-src/.test(directive) && isHttpUrl(blockedUri);
  return { pageUrl: pageOf(pageUrl), items: refusedScript ? [violation, { kind: 'script', src: blockedUri }] : [violation] };
}

/**
 * A URL that fits an observation (MAX_URL_LENGTH), cut to its origin and path when only its query or fragment
 * made it too long: a refused script with a long query is still that script, and was lost with its report.
 * Undefined when even that is too long.
 */
function fitting(url: string | undefined): string | undefined {
  if (url === undefined || url.length <= MAX_URL_LENGTH) return url;
  const bare = pageOf(url);
  return bare.length <= MAX_URL_LENGTH ? bare : undefined;
}

/** The Reporting API's names; only these fields are read. */
function reportingFields(body: Fields, url: unknown): Fields {
  const { documentURL, effectiveDirective, blockedURL, sourceFile } = body;
  return { documentURL: documentURL ?? url, effectiveDirective, blockedURL, sourceFile };
}

/** The hyphenated report-uri names, mapped to the Reporting API's. */
function legacyFields(legacy: Fields): Fields {
  return {
    documentURL: legacy['document-uri'],
    effectiveDirective: legacy['effective-directive'],
    violatedDirective: legacy['violated-directive'],
    blockedURL: legacy['blocked-uri'],
    sourceFile: legacy['source-file'],
  };
}
