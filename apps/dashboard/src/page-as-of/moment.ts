import { dayStart, offsetMs } from '../audit-log/audit-log-filter';

/** The page's question as typed: a store, one of its payment pages, and a day and time on the store's clock. */
export interface MomentSearch {
  store_id: string;
  page_id: string;
  date: string;
  time: string;
}

export const momentSearchOf = (query: Record<string, string>): MomentSearch => ({
  store_id: (query.store_id ?? '').trim(),
  page_id: (query.page_id ?? '').trim(),
  date: (query.date ?? '').trim(),
  time: (query.time ?? '').trim(),
});

const CLOCK = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

/**
 * The instant a wall-clock `date` (YYYY-MM-DD) and `time` (HH:MM, or HH:MM:SS as some browsers send) mean in
 * `timeZone`, ISO 8601 UTC; or the fields that are not a day or a time. A time skipped by a DST change lands an
 * hour later.
 */
export function momentIn(date: string, time: string, timeZone: string): { at: string } | { invalid: Array<'date' | 'time'> } {
  const clock = CLOCK.exec(time);
  const invalid = [...(dayStart(date, timeZone) === null ? (['date'] as const) : []), ...(clock ? [] : (['time'] as const))];
  if (invalid.length || !clock) return { invalid };
  const [year, month, day] = date.split('-').map(Number);
  const wall = Date.UTC(year, month - 1, day, Number(clock[1]), Number(clock[2]), Number(clock[3] ?? 0));
  const guess = wall - offsetMs(wall, timeZone);
  return { at: new Date(wall - offsetMs(guess, timeZone)).toISOString() };
}

/** A moment's date and time on the store's clock: what the form shows back (and offers first, as now). */
export function wallClockOf(at: Date, timeZone: string): { date: string; time: string } {
  const local = new Date(at.getTime() + offsetMs(at.getTime(), timeZone));
  const iso = local.toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 16) };
}
