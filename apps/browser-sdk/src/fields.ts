import { MAX_CALLERS, scriptsOfCall } from './stack';

/** Default field classes: `autocomplete` first (what browsers and payment forms use), then name and id. */
const BY_AUTOCOMPLETE: Array<[RegExp, string]> = [
  [/\bcc-number\b/, 'card_number'],
  [/\bcc-csc\b/, 'cvv'],
  [/\bcc-exp(-month|-year)?\b/, 'expiry'],
];
const BY_NAME: Array<[RegExp, string]> = [
  [/card.?num|cc.?num|cardnumber|num.?cart/i, 'card_number'],
  [/cvv|cvc|csc|security.?code|cod.?seg/i, 'cvv'],
  [/expir|exp.?(date|month|year)|validade|venc/i, 'expiry'],
  [/\b(cpf|cnpj)\b|cpf|cnpj|document/i, 'document'],
];

/** The field class of an input, `undefined` for an ordinary one. Selectors from the config replace the defaults. */
export function fieldClass(input: Element, selectors: string[] | null): string | undefined {
  if (selectors) {
    for (const selector of selectors) {
      try {
        if (input.matches(selector)) return selector;
      } catch {
        // an invalid selector in the config matches nothing
      }
    }
    return undefined;
  }
  const autocomplete = (input.getAttribute('autocomplete') || '').toLowerCase();
  for (const [pattern, field] of BY_AUTOCOMPLETE) if (pattern.test(autocomplete)) return field;
  const names = `${input.getAttribute('name') || ''} ${input.id || ''}`;
  for (const [pattern, field] of BY_NAME) if (pattern.test(names)) return field;
  return undefined;
}

const nativeGetters = new Map<object, () => string>();

/** A field's value as the SDK itself reads it (recipients): through the browser's own getter, never the wrapped one. */
export function nativeValue(element: HTMLInputElement | HTMLTextAreaElement): string {
  const get = nativeGetters.get(Object.getPrototypeOf(element));
  return get ? get.call(element) : element.value;
}

/**
 * Which scripts read a sensitive field's value: the `value` getters of inputs and selects are wrapped, and a read
 * of a sensitive field names its reader and the scripts that called it from the stack trace. Only their URLs and
 * the field class are reported, once per chain and field per page view; the value is returned untouched and never
 * leaves the page.
 */
export class SensitiveFields {
  private selectors: string[] | null = null;
  private active = true;
  private classes = new WeakMap<Element, string | null>();
  private readonly reported = new Set<string>();
  /** Reads before the config came (its selectors may name fields the defaults do not): classified once it comes. */
  private early: Array<[Element, string[]]> | null = [];

  constructor(
    private readonly selfUrl: string,
    /** `callers`: the other scripts on the stack, innermost first (at most MAX_CALLERS). */
    private readonly report: (src: string, field: string, callers: string[]) => void,
  ) {}

  install(): void {
    for (const type of [HTMLInputElement, HTMLSelectElement, HTMLTextAreaElement]) {
      const descriptor = Object.getOwnPropertyDescriptor(type.prototype, 'value');
      if (!descriptor || !descriptor.get || !descriptor.configurable) continue;
      const get = descriptor.get;
      nativeGetters.set(type.prototype, get);
      // eslint-disable-next-line @typescript-eslint/no-this-alias -- the patched getter's own `this` is the field
      const watcher = this;
      Object.defineProperty(type.prototype, 'value', {
        ...descriptor,
        get(this: Element) {
          const value = get.call(this);
          if (watcher.active) watcher.read(this);
          return value;
        },
      });
    }
  }

  configure(selectors: string[] | null, active: boolean): void {
    this.selectors = selectors && selectors.length ? selectors : null;
    this.active = active;
    this.classes = new WeakMap(); // classified before the config came: classify again with its selectors
    const early = this.early || [];
    this.early = null;
    if (active) for (const [element, scripts] of early) this.attribute(element, scripts);
  }

  /** The element's field class (cached), or null for an ordinary field. */
  classify(element: Element): string | null {
    let field = this.classes.get(element);
    if (field === undefined) {
      field = fieldClass(element, this.selectors) ?? null;
      this.classes.set(element, field);
    }
    return field;
  }

  private read(element: Element): void {
    try {
      if (this.early) {
        const scripts = this.early.length < 50 ? scriptsOfCall(this.selfUrl, location.href) : [];
        if (scripts.length) this.early.push([element, scripts]);
        return;
      }
      if (this.classify(element) === null) return;
      const scripts = scriptsOfCall(this.selfUrl, location.href);
      if (scripts.length) this.attribute(element, scripts);
    } catch {
      // never into the page
    }
  }

  private attribute(element: Element, scripts: string[]): void {
    const field = this.classify(element);
    const key = `${field} ${scripts.join(' ')}`;
    if (field === null || this.reported.has(key)) return;
    this.reported.add(key);
    this.report(scripts[0], field, scripts.slice(1, 1 + MAX_CALLERS));
  }
}
