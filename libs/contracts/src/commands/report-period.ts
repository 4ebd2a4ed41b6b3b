import { DAY_MS, validationError, type ErrorDetail } from '@pss/kernel';
import { REPORT_DEFAULT_PERIOD_DAYS, REPORT_MAX_PERIOD_DAYS } from './reports';

/**
 * A report's period as asked for, with the spec's defaults (end now, start 7 days before); one detail per wrong
 * field. The API's query and the dashboard's form both go through it before `reports.report.generate`.
 */
export function reportPeriod(start: string | undefined, end: string | undefined, now: number): { periodStart: string; periodEnd: string } {
  const endMs = end === undefined ? now : Date.parse(end);
  const startMs = start === undefined ? endMs - REPORT_DEFAULT_PERIOD_DAYS * DAY_MS : Date.parse(start);
  const details: ErrorDetail[] = [];
  if (Number.isNaN(endMs)) details.push({ field: 'period_end', message: 'period_end must be an ISO 8601 date-time' });
  if (Number.isNaN(startMs)) details.push({ field: 'period_start', message: 'period_start must be an ISO 8601 date-time' });
  if (!details.length && startMs > endMs) details.push({ field: 'period_start', message: 'period_start must not be after period_end' });
  if (!details.length && endMs - startMs > REPORT_MAX_PERIOD_DAYS * DAY_MS) {
    details.push({ field: 'period_end', message: `the period may span at most ${REPORT_MAX_PERIOD_DAYS} days` });
  }
  if (details.length) throw validationError(details);
  return { periodStart: new Date(startMs).toISOString(), periodEnd: new Date(endMs).toISOString() };
}
