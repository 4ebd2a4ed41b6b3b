import type { ReportLocale } from '@pss/report-files';

/** Dates of a report as an assessor reads them: in the store's time zone, and in UTC beside it. */
export interface ReportDates {
  /** The time zone actually used: the store's, or UTC when the store's is not one the runtime knows. */
  timezone: string;
  local(iso: string | null): string;
  /** The day only, in store time. */
  day(iso: string | null): string;
  utc(iso: string | null): string;
  /** Store time with the UTC time beside it: `17/11/2026 09:30 (12:30 UTC)`, the UTC date too when it differs. */
  both(iso: string | null): string;
}

// Numeric day/month in Brazil (unambiguous there); the month's name in English, where 11/12 is read both ways.
const STYLE: Record<ReportLocale, { intl: string; options: Intl.DateTimeFormatOptions }> = {
  'pt-BR': { intl: 'pt-BR', options: { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } },
  en: { intl: 'en-US', options: { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } },
};

export function reportDates(locale: ReportLocale, timezone: string): ReportDates {
  const style = STYLE[locale] ?? STYLE['pt-BR'];
  const zone = knownTimeZone(timezone);
  // Built once per report: constructing a formatter costs far more than formatting with it.
  const local = new Intl.DateTimeFormat(style.intl, { ...style.options, timeZone: zone });
  const utc = new Intl.DateTimeFormat(style.intl, { ...style.options, timeZone: 'UTC' });
  const localDate = new Intl.DateTimeFormat(style.intl, { ...style.options, hour: undefined, minute: undefined, timeZone: zone });
  const utcShort = new Intl.DateTimeFormat(style.intl, { ...style.options, year: undefined, timeZone: 'UTC' });
  // Timestamps repeat within a report (a batch of decisions, a policy run): each is formatted once.
  const both = new Map<string, string>();
  const format = (formatter: Intl.DateTimeFormat, iso: string | null): string => {
    if (!iso) return '';
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? iso : formatter.format(date).replace(/,\s(?=\d{2}:\d{2}$)/, ' ');
  };
  return {
    timezone: zone,
    local: (iso) => format(local, iso),
    day: (iso) => format(localDate, iso),
    utc: (iso) => (iso ? `${format(utc, iso)} UTC` : ''),
    both: (iso) => {
      if (!iso) return '';
      let text = both.get(iso);
      if (text === undefined) {
        const [localText, utcText] = [format(local, iso), format(utc, iso)];
        const [utcDay, utcTime] = dayAndTime(utcText);
        text = `${localText} (${dayAndTime(localText)[0] === utcDay ? utcTime : format(utcShort, iso)} UTC)`;
        both.set(iso, text);
      }
      return text;
    },
  };
}

/** `17/11/2026 12:30` → [`17/11/2026`, `12:30`]: the time is always the last word. */
function dayAndTime(text: string): [string, string] {
  const space = text.lastIndexOf(' ');
  return [text.slice(0, space), text.slice(space + 1)];
}

function knownTimeZone(timezone: string): string {
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
    return timezone;
  } catch {
    return 'UTC';
  }
}
