import { sri384, utf8 } from './hashing';
import type { Observation } from './observations';
import { contentHash } from './fetched';
import { quietly } from './safe';
import { bareUrl, gtmContainer } from './stack';

/** Script types a browser runs; JSON-LD, templates and neutralized scripts are data, not code. */
const RUNNABLE = /^(|module|(text|application)\/(x-)?(java|ecma)script)$/i;
const SRI_TOKEN = /^sha(256|384|512)-[A-Za-z0-9+/]+={0,2}$/;

/** Facts other parts of the SDK know about script elements. */
export interface ScriptFacts {
  /** The tag-manager container that inserted the element (from the stack at insertion). */
  gtmOf: WeakMap<Element, string>;
  /** Elements block mode stopped. */
  blocked: WeakSet<Element>;
}

/**
 * Every script of the page, once each: the ones already there (`document.scripts`, buffered resource timing),
 * the ones added later (MutationObserver, resource timing), external and inline, module, async or defer.
 * Content is hashed in the page (SHA-384 of the bytes, fetched from the HTTP cache, when same-origin or CORS
 * allows), else the `integrity` attribute is the hash (`hash_source: sri`), else there is no hash.
 */
export class ScriptObserver {
  private readonly seen = new Set<string>();

  constructor(
    private readonly selfUrl: string,
    private readonly facts: ScriptFacts,
    private readonly report: (observation: Observation) => void,
  ) {}

  /** Until the config says go, elements are only noted: a paused SDK or a refused key costs the page nothing. */
  private pending: HTMLScriptElement[] | null = [];

  start(): void {
    const pending = this.pending || [];
    this.pending = null;
    for (const element of pending) this.element(element);
  }

  element(element: HTMLScriptElement): void {
    if (this.pending) {
      if (this.pending.length < 500) this.pending.push(element);
      return;
    }
    const blocked = this.facts.blocked.has(element);
    if (!blocked && !RUNNABLE.test(element.type.trim())) return;
    if (element.src) {
      this.external(element.src, element, blocked);
      return;
    }
    const text = element.text;
    if (!text.trim() || this.seen.has(text)) return;
    this.seen.add(text);
    const bytes = utf8(text);
    quietly(
      sri384(bytes).then((hash) => {
        if (hash) this.report(prune({ kind: 'script', inline: true, hash, hash_source: 'sdk', size_bytes: bytes.length, blocked: blocked || undefined }));
      }),
    );
  }

  /** A script URL seen in resource timing or on an element. */
  external(src: string, element?: HTMLScriptElement, blocked = false): void {
    if (this.pending) return; // resource entries are read again (buffered) once started
    let url: string;
    try {
      url = new URL(src, location.href).href.replace(/#.*$/, '');
    } catch {
      return;
    }
    if (!/^https?:/.test(url) || bareUrl(url) === this.selfUrl || this.seen.has(url)) return;
    this.seen.add(url);
    const integrity = element ? element.integrity : '';
    const gtm = (element && this.facts.gtmOf.get(element)) || gtmContainer(url);
    const base: Observation = prune({ kind: 'script', src: url, inline: false, integrity_attr: element ? !!integrity : undefined, gtm_container: gtm, blocked: blocked || undefined });
    if (blocked) {
      this.report(base); // never fetch what block mode stopped
      return;
    }
    quietly(
      contentHash(url).then((content) => {
        const sri = integrity.split(/\s+/).filter((token) => SRI_TOKEN.test(token))[0];
        this.report(prune({ ...base, ...(content ?? (sri ? { hash: sri, hash_source: 'sri' } : {})) }));
      }),
    );
  }
}

function prune<T extends object>(value: T): T {
  const out = {} as Record<string, unknown>;
  for (const key of Object.keys(value)) if ((value as Record<string, unknown>)[key] !== undefined) out[key] = (value as Record<string, unknown>)[key];
  return out as T;
}
