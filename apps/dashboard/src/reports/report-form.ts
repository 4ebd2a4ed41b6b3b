import { REPORT_CADENCES, REPORT_LOCALES, reportPeriod, type ReportCadence, type ReportLocale } from '@pss/contracts';
import { DomainError } from '@pss/kernel';
import { dayStart } from '../audit-log/audit-log-filter';
import { wallClockOf } from '../page-as-of/moment';

/** The generate form as typed: days on the store's clock (the end day included) and the report's language. */
export interface ReportFormValues {
  period_start: string;
  period_end: string;
  locale: string;
}

export type ReportFormErrors = Partial<Record<keyof ReportFormValues, string>>;

/** What the form offers first: the spec's default period, the 7 days up to today, in the reader's language. */
export function defaultReportForm(now: Date, timeZone: string, locale: ReportLocale): ReportFormValues {
  const today = wallClockOf(now, timeZone).date;
  const weekAgo = wallClockOf(new Date(now.getTime() - 6 * 86_400_000), timeZone).date;
  return { period_start: weekAgo, period_end: today, locale };
}

/**
 * The period the form means: from the start of its first day to the end of its last, on the store's clock, and
 * never past `now` (a report is evidence of what happened). The period's own rules (order, at most 366 days) are
 * the API's, checked by the same function with its words; a field that is not a day is said so first.
 */
export function reportRequestOf(
  values: ReportFormValues,
  timeZone: string,
  now: Date,
): { request: { periodStart: string; periodEnd: string; locale: ReportLocale } } | { errors: ReportFormErrors } {
  const start = dayStart(values.period_start, timeZone);
  const end = dayStart(values.period_end, timeZone, 1);
  const errors: ReportFormErrors = {};
  if (!start) errors.period_start = 'period_start must be a day';
  if (!end) errors.period_end = 'period_end must be a day';
  if (!REPORT_LOCALES.includes(values.locale as ReportLocale)) errors.locale = `locale must be one of: ${REPORT_LOCALES.join(', ')}`;
  if (!start || !end || errors.locale) return { errors };
  try {
    const periodEnd = new Date(Math.min(Date.parse(end), now.getTime())).toISOString();
    return { request: { ...reportPeriod(start, periodEnd, now.getTime()), locale: values.locale as ReportLocale } };
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== 'validation_error') throw error;
    return { errors: Object.fromEntries((error.details ?? []).map((detail) => [detail.field, detail.message])) };
  }
}

/** The schedule form: the API's cadences and languages, active when ticked. */
export function scheduleOf(form: Record<string, string>): { cadence: ReportCadence; locale: ReportLocale; active: boolean } | undefined {
  const cadence = form.cadence as ReportCadence;
  const locale = form.locale as ReportLocale;
  if (!REPORT_CADENCES.includes(cadence) || !REPORT_LOCALES.includes(locale)) return undefined;
  return { cadence, locale, active: form.active === 'on' };
}
