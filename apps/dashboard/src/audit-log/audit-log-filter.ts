import type { AuditLogFilter } from '@pss/dashboard-reads';

/** The audit log page's filter as typed: dates are days (`YYYY-MM-DD`) in the organization's time zone. */
export interface AuditLogSearch {
  actor: string;
  action: string;
  from: string;
  to: string;
}

export type DateField = 'from' | 'to';

export const auditLogSearchOf = (query: Record<string, string>): AuditLogSearch => ({
  actor: (query.actor ?? '').trim(),
  action: (query.action ?? '').trim(),
  from: (query.from ?? '').trim(),
  to: (query.to ?? '').trim(),
});

/**
 * The query's filter: `from` is the start of its day, `to` the end of its day (both days included, as a person
 * reads "from the 1st to the 3rd"), in `timeZone`. `invalid` names a day that is not one, or a `to` before `from`.
 */
export function auditLogFilterOf(search: AuditLogSearch, timeZone: string): { filter: AuditLogFilter; invalid: DateField[] } {
  const from = search.from ? dayStart(search.from, timeZone) : undefined;
  const dayAfterTo = search.to ? dayStart(search.to, timeZone, 1) : undefined;
  const invalid: DateField[] = [];
  if (from === null) invalid.push('from');
  if (dayAfterTo === null || (from && dayAfterTo && dayAfterTo <= from)) invalid.push('to');
  return {
    filter: { actor: search.actor || undefined, action: search.action || undefined, from: from ?? undefined, to: dayAfterTo ?? undefined },
    invalid,
  };
}

/** The search again as a query string (empty fields left out), with the page's cursor: the links of the next page and the CSV. */
export function auditLogQueryString(search: AuditLogSearch, cursor?: string): string {
  const params = new URLSearchParams(Object.entries({ ...search, cursor: cursor ?? '' }).filter(([, value]) => value !== ''));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The instant a day (plus `addDays`) starts in `timeZone`, ISO 8601 UTC; null when `day` is not a calendar day. */
export function dayStart(day: string, timeZone: string, addDays = 0): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const [year, month, date] = match.slice(1).map(Number);
  const midnightUtc = Date.UTC(year, month - 1, date);
  if (new Date(midnightUtc).getUTCDate() !== date || new Date(midnightUtc).getUTCMonth() !== month - 1) return null;
  const wall = Date.UTC(year, month - 1, date + addDays);
  // The zone's offset at the guess, then at the result: a day starting across a DST change is off by the change once.
  const guess = wall - offsetMs(wall, timeZone);
  return new Date(wall - offsetMs(guess, timeZone)).toISOString();
}

/** How far the zone's wall clock is ahead of UTC at `at` (negative west of Greenwich). */
export function offsetMs(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((candidate) => candidate.type === type)!.value);
  return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second')) - Math.floor(at / 1000) * 1000;
}
