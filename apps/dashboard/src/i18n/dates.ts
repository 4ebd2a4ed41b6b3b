import type { Locale } from './catalogue';

/** Where no store or organization names one: the reports' default, Brazil's official time. */
export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

export interface ShownTime {
  /** ISO 8601 in UTC, for `<time datetime>`. */
  iso: string;
  /** Date and time in the zone, in the reader's language. */
  local: string;
  /** The same instant in UTC, for the title shown on hover. */
  utc: string;
}

/**
 * One formatter per language and zone, made once: making one costs about as much as rendering a whole page's rows
 * (the inventory shows two times per script, each in its zone and UTC), using one next to nothing. Bounded by the
 * two languages times the zones stores name.
 */
const formats = new Map<string, Intl.DateTimeFormat>();
function format(locale: Locale, timeZone: string): Intl.DateTimeFormat {
  const key = `${locale} ${timeZone}`;
  let made = formats.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone, timeZoneName: 'short' });
    formats.set(key, made);
  }
  return made;
}

export function showTime(at: string | Date, locale: Locale, timeZone: string = DEFAULT_TIME_ZONE): ShownTime {
  const date = typeof at === 'string' ? new Date(at) : at;
  return { iso: date.toISOString(), local: format(locale, timeZone).format(date), utc: format(locale, 'UTC').format(date) };
}
