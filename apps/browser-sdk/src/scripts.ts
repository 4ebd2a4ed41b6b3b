import { sri384, utf8 } from './hashing';
import type { Observation } from './observations';
import { contentHash, readableByCors } from './fetched';
import { keepContent, knownContent } from './known-content';
import { checkedTokens } from './sri';
import { bareUrl, gtmContainer } from './stack';

/** Script types a browser runs; JSON-LD, templates and neutralized scripts are data, not code. */
const RUNNABLE = /^(|module|(text|application)\/(x-)?(java|ecma)script)$/i;

/** Facts other parts of the SDK know about script elements. */
export interface ScriptFacts {
  /** The tag-manager container that inserted the element (from the stack at insertion). */
  gtmOf: WeakMap<Element, string>;
  /** Elements block mode stopped. */
  blocked: WeakSet<Element>;
  /** The SDK's own elements (the install loader's inline script): not the shop's scripts. */
  ours: WeakSet<Element>;
}

/**
 * Every script of the page, once each: the ones already there (`document.scripts`, buffered resource timing),
 * the ones added later (MutationObserver, resource timing), external and inline, module, async or defer.
 * Content is hashed in the page (SHA-384 of the bytes, fetched from the HTTP cache, when same-origin or the
 * browser's own load of it showed CORS allows: `readableByCors`), else the `integrity` attribute is the hash
 * (`hash_source: sri`), else there is no hash. Bytes that
 * the attribute's tokens do not name were refused by the browser: reported with them (`refused_integrity`).
 */
export class ScriptObserver {
  private readonly seen = new Set<string>();

  /** @param corsRefused whether to spare a script its re-fetch: the service has only seen it refused (url-tag.ts, `refusedByCors`) */
  constructor(
    private readonly selfUrl: string,
    private readonly facts: ScriptFacts,
    private readonly report: (observation: Observation) => void,
    private readonly corsRefused: (url: string) => boolean = () => false,
  ) {}

  /** Until the config says go, elements are only noted: a paused SDK or a refused key costs the page nothing. */
  private pending: HTMLScriptElement[] | null = [];

  start(): void {
    const pending = this.pending || [];
    this.pending = null;
    for (const element of pending) this.element(element);
  }

  /**
   * The page's scripts once it has loaded: every element, then the buffered resource entries of scripts no
   * element names any more. Each is a piece of work for `later` (the idle queue: a re-fetch is a `fetch()` call,
   * milliseconds on a slow phone, and together they would make a long task); the promise settles when all of
   * them have been reported, so the first batch can leave complete.
   */
  scan(later: (work: () => void) => void): Promise<unknown> {
    const reported: Array<Promise<void>> = [];
    const elements: HTMLScriptElement[] = Array.prototype.slice.call(document.scripts);
    // An entry whose script has an element is reported with it, integrity attribute and all.
    const entries = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((entry) => entry.initiatorType === 'script');
    for (const element of elements) later(() => reported.push(this.element(element)));
    for (const entry of entries) later(() => reported.push(this.external(entry.name)));
    return new Promise((settle) => later(() => settle(Promise.all(reported))));
  }

  /** Reports the element's script (once per URL or inline text); settles when it has been reported. */
  element(element: HTMLScriptElement): Promise<void> {
    if (this.pending) {
      if (this.pending.length < 500) this.pending.push(element);
      return DONE;
    }
    if (this.facts.ours.has(element)) return DONE;
    const blocked = this.facts.blocked.has(element);
    if (!blocked && !RUNNABLE.test(element.type.trim())) return DONE;
    const src = element.src; // resolved anew by the DOM at every read
    if (src) return this.external(src, element, blocked);
    const text = element.text;
    if (!text.trim() || this.seen.has(text)) return DONE;
    this.seen.add(text);
    const bytes = utf8(text);
    return sri384(bytes).then(
      (hash) => {
        if (hash) this.report(prune({ kind: 'script', inline: true, hash, hash_source: 'sdk', size_bytes: bytes.length, blocked: blocked || undefined }));
      },
      () => undefined,
    );
  }

  /** A script URL seen in resource timing or on an element; settles when it has been reported. */
  external(src: string, element?: HTMLScriptElement, blocked = false): Promise<void> {
    if (this.pending) return DONE; // resource entries are read again (buffered) once started
    const url = absoluteUrl(src);
    if (!url || bareUrl(url) === this.selfUrl || this.seen.has(url)) return DONE;
    this.seen.add(url);
    const integrity = element ? element.integrity : '';
    const gtm = (element && this.facts.gtmOf.get(element)) || gtmContainer(url);
    const base: Observation = prune({ kind: 'script', src: url, inline: false, integrity_attr: element ? !!integrity : undefined, gtm_container: gtm, blocked: blocked || undefined });
    if (blocked) {
      this.report(base); // never fetch what block mode stopped
      return DONE;
    }
    const checked = checkedTokens(integrity);
    const declared = checked.length ? { hash: checked[0], hash_source: 'sri' as const } : {};
    if (this.corsRefused(url) || !readableByCors(url, element)) {
      this.report(prune({ ...base, ...declared })); // what a refused re-fetch would have given
      return DONE;
    }
    // An `integrity` attribute is checked against the bytes every time: only scripts without one reuse a hash.
    const known = checked.length ? undefined : knownContent(url);
    if (known) {
      this.report(prune({ ...base, ...known }));
      return DONE;
    }
    return contentHash(url, checked).then(
      (content) => {
        if (content && !checked.length) keepContent(url, content);
        this.report(prune({ ...base, ...(content ?? declared) }));
      },
      () => undefined,
    );
  }
}

const DONE: Promise<void> = Promise.resolve();

/** An http(s) URL without its fragment; what the DOM and resource timing give is absolute already, so most are not parsed. */
function absoluteUrl(src: string): string | undefined {
  if (/^https?:\/\//.test(src)) return src.split('#')[0];
  try {
    const url = new URL(src, location.href).href.split('#')[0];
    return /^https?:/.test(url) ? url : undefined;
  } catch {
    return undefined;
  }
}

function prune<T extends object>(value: T): T {
  const out = {} as Record<string, unknown>;
  for (const key of Object.keys(value)) if ((value as Record<string, unknown>)[key] !== undefined) out[key] = (value as Record<string, unknown>)[key];
  return out as T;
}
