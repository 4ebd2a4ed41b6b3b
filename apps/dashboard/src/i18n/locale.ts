import { DEFAULT_LOCALE, LOCALES, type Locale } from './catalogue';

const isLocale = (value: string | undefined): value is Locale => LOCALES.includes(value as Locale);

/** `en-US` → en, `pt` → pt-BR: the languages the catalogue has, by their primary subtag. */
function supported(tag: string): Locale | undefined {
  const primary = tag.trim().toLowerCase().split('-')[0];
  if (primary === 'pt') return 'pt-BR';
  if (primary === 'en') return 'en';
  return undefined;
}

/** The Accept-Language entries by descending quality (RFC 9110 §12.5.4), ties in the order sent. */
function byPreference(header: string): string[] {
  return header
    .split(',')
    .map((entry, index) => {
      const [tag, ...parameters] = entry.split(';');
      const quality = parameters.map((parameter) => /^\s*q=([0-9.]+)\s*$/.exec(parameter)).find(Boolean);
      return { tag: tag.trim(), q: quality ? Number(quality[1]) : 1, index };
    })
    .filter(({ tag, q }) => tag && q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map(({ tag }) => tag);
}

/** The switcher's choice (query, then its cookie) wins over the browser's Accept-Language; pt-BR when nothing matches. */
export function negotiateLocale(choice: { query?: string; cookie?: string; acceptLanguage?: string }): Locale {
  if (isLocale(choice.query)) return choice.query;
  if (isLocale(choice.cookie)) return choice.cookie;
  for (const tag of byPreference(choice.acceptLanguage ?? '')) {
    const locale = supported(tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}
