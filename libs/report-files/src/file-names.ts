import { domainToASCII } from 'node:url';
import type { CsvTable } from './report-data';

/**
 * Names of the files a report downloads as, for `Content-Disposition`: plain ASCII (an internationalized domain
 * in its xn-- form), nothing a header or a file system could misread, and the period in UTC days:
 * `pci-report_xn--loja-acentuao-p7a.com.br_scripts_20261116-20261123.csv`.
 */
export function csvFileName(domain: string, table: CsvTable, periodStart: string, periodEnd: string): string {
  return `${baseName(domain, periodStart, periodEnd, table)}.csv`;
}

export function pdfFileName(domain: string, periodStart: string, periodEnd: string): string {
  return `${baseName(domain, periodStart, periodEnd)}.pdf`;
}

/** The header value; the name is ASCII already, so no `filename*` is needed. */
export const attachment = (fileName: string): string => `attachment; filename="${fileName}"`;

function baseName(domain: string, periodStart: string, periodEnd: string, table?: string): string {
  const parts = ['pci-report', safe(domainToASCII(domain) || domain), ...(table ? [safe(table)] : []), `${day(periodStart)}-${day(periodEnd)}`];
  return parts.join('_');
}

const safe = (text: string): string => text.toLowerCase().replace(/[^a-z0-9.-]+/g, '-').replace(/^[.-]+|[.-]+$/g, '').slice(0, 100) || 'store';

const day = (iso: string): string => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? 'undated' : date.toISOString().slice(0, 10).replace(/-/g, '');
};
