/**
 * Server-rendered HTML as tagged templates: every interpolated value is escaped unless it is itself `Html`, so a
 * page cannot forget to escape a name an organization chose. Chosen over Eta templates (docs/decisions.md, issue
 * 31): the compiler checks each page's data, and there is no second template language to learn or to escape in.
 */
export class Html {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

export const escapeHtml = (text: string): string => text.replace(/[&<>"'`]/g, (character) => ENTITIES[character]);

/** What a template slot accepts: markup, text, numbers, lists of either; nothing (null, undefined, false) renders empty. */
export type Slot = Html | string | number | null | undefined | false | readonly Slot[];

function render(value: Slot): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Slot[]): Html {
  return new Html(strings.reduce((out, text, index) => out + text + (index < values.length ? render(values[index]) : ''), ''));
}
