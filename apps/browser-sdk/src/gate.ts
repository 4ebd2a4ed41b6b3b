import { neutralize, NEUTRAL_TYPE, type BlockRules } from './block';
import { sri384, utf8 } from './hashing';
import { quietly, safe } from './safe';
import type { ScriptFacts } from './scripts';
import { gtmContainer, stackUrls } from './stack';

const WAIT_FOR_CONFIG_MS = 1500;

/**
 * Every way a script element enters the document after the SDK: the DOM insertion methods and the `src`
 * setter are wrapped (to name the tag manager that inserted a script, and in block mode to stop a blocked one
 * before it runs), and a MutationObserver sees what the HTML parser adds (while the page is parsed only in block
 * mode; the scripts already there are scanned once it has loaded). A stopped script is inserted
 * neutralized (a type browsers do not run) and gets an `error` event, as a failed load would: loaders waiting on
 * it go on. In block mode with hash rules, a dynamically inserted inline script waits for its hash (one
 * microtask of crypto) before it runs.
 */
export class ScriptGate {
  private readonly released = new WeakSet<Element>();
  /** Scripts inserted while the fresh config is awaited in block mode, with their own type. */
  private waiting?: Array<[HTMLScriptElement, string | null]>;
  /** The same scripts, for the observer: the fresh config decides on them, not the last page view's. */
  private readonly held = new WeakSet<Element>();

  /** Told when the document's tree changes (the overlay check waits for a change). */
  mutated = (): void => undefined;

  /**
   * @param recall brings back the last page view's config the first time a decision is due (once: it reads
   *   storage, which is not free)
   */
  constructor(
    private readonly rules: BlockRules,
    private readonly facts: ScriptFacts,
    private readonly seen: (script: HTMLScriptElement) => void,
    private readonly recall: () => void,
  ) {}

  /** @param watchParser whether scripts the parser adds after the SDK must be seen before they run (block mode) */
  install(watchParser: boolean): void {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the patched DOM methods' own `this` is the node
    const gate = this;
    const wrap = (target: object, name: string, nodesOf: (args: unknown[]) => unknown[]) => {
      const descriptor = Object.getOwnPropertyDescriptor(target, name);
      const original: unknown = descriptor && descriptor.value;
      if (!descriptor || typeof original !== 'function') return;
      Object.defineProperty(target, name, {
        ...descriptor,
        value: function (this: unknown, ...args: unknown[]) {
          gate.inspect(nodesOf(args));
          return original.apply(this, args);
        },
      });
    };
    const first = (args: unknown[]) => [args[0]];
    wrap(Node.prototype, 'appendChild', first);
    wrap(Node.prototype, 'insertBefore', first);
    wrap(Node.prototype, 'replaceChild', first);
    for (const name of ['append', 'prepend', 'before', 'after', 'replaceWith']) wrap(Element.prototype, name, (args) => args);
    wrap(Element.prototype, 'insertAdjacentElement', (args) => [args[1]]);

    const descriptor = Object.getOwnPropertyDescriptor(HTMLScriptElement.prototype, 'src');
    if (descriptor && descriptor.set && descriptor.configurable) {
      const set = descriptor.set;
      Object.defineProperty(HTMLScriptElement.prototype, 'src', {
        ...descriptor,
        set(this: HTMLScriptElement, value: string) {
          set.call(this, value);
          gate.srcChanged(this);
        },
      });
    }
    const setAttribute = Element.prototype.setAttribute;
    Element.prototype.setAttribute = function (this: Element, name: string, value: string) {
      setAttribute.call(this, name, value);
      if (this instanceof HTMLScriptElement && String(name).toLowerCase() === 'src') gate.srcChanged(this);
    };
    if (watchParser) this.watch();
  }

  /**
   * Watches the tree for added scripts. While the page is parsed this costs a record per node the parser adds,
   * so it stops at the first one unless the last page view's config says block mode (only then must a
   * parser-added script be seen before it runs); `watch` again once the page has loaded.
   */
  watch(): void {
    if (this.watching) return;
    this.watching = true;
    this.observer.observe(document.documentElement, { childList: true, subtree: true });
  }

  private readonly observer = new MutationObserver(
    safe((records: MutationRecord[]) => {
      this.mutated();
      this.recall();
      for (const record of records) {
        for (let i = 0; i < record.addedNodes.length; i += 1) {
          // The parser adds one node per record, mostly text or an element still empty: only a script or an
          // element with children can hold one (asked without allocating anything).
          const added = record.addedNodes[i] as Element;
          if (added.nodeType === 1 ? added.nodeName === 'SCRIPT' || added.firstElementChild : added.nodeType === 11) this.parsed(added);
        }
      }
      if (!this.rules.enforcing && document.readyState === 'loading') {
        this.observer.disconnect();
        this.watching = false;
      }
    }),
  );
  private watching = false;

  /** Scripts the parser added after the SDK: neutralized before they run where the browser allows it. */
  private parsed(added: Node): void {
    for (const script of scriptsIn(added)) {
      this.recall();
      if (!this.released.has(script) && !this.held.has(script) && !this.facts.blocked.has(script) && this.blocks(script)) {
        this.stop(script);
        script.addEventListener('beforescriptexecute', (event) => event.preventDefault()); // Firefox
      }
      this.seen(script);
    }
  }

  private inspect = safe((nodes: unknown[]) => {
    for (const added of nodes) {
      for (const script of scriptsIn(added)) this.admit(script);
    }
  });

  private admit(script: HTMLScriptElement): void {
    if (this.released.has(script) || this.facts.blocked.has(script)) return;
    this.recall();
    // Which tag manager inserted it, from the stack (the tag manager may have come with the HTML, while the
    // parser was not watched). A stack trace costs more than the rest of the hook: only taken when a tag
    // manager's script is on the page.
    if (tagManagerPresent()) {
      const gtm = stackUrls(new Error().stack).map(gtmContainer).filter(Boolean)[0];
      if (gtm) this.facts.gtmOf.set(script, gtm);
    }
    // While the fresh config is awaited, the last page view's rules do not decide: one lifted since (a script
    // authorized after its block) must not stop the script on this view.
    if (script.src && this.waiting) {
      this.waiting.push([script, script.getAttribute('type')]);
      this.held.add(script);
      script.type = NEUTRAL_TYPE;
    } else if (this.blocks(script)) this.stop(script);
    else if (!script.src && script.text.trim() && this.rules.hashRules) this.holdForHash(script);
  }

  private srcChanged = safe((script: HTMLScriptElement) => {
    if (!script.isConnected) return;
    if (this.rules.blocksUrl(script.src)) this.stop(script);
    this.seen(script);
  });

  private blocks(script: HTMLScriptElement): boolean {
    return (!!script.src && this.rules.blocksUrl(script.src)) || this.rules.blocksHash(script.integrity);
  }

  private stop(script: HTMLScriptElement): void {
    this.facts.blocked.add(script);
    neutralize(script);
  }

  /**
   * An inline script waits for its hash; it is run (or not) on the same element, so whoever holds it (and its
   * listeners) sees no difference but a microtask of delay.
   */
  private holdForHash(script: HTMLScriptElement): void {
    const type = script.getAttribute('type');
    script.type = NEUTRAL_TYPE;
    quietly(
      sri384(utf8(script.text)).then(
        safe((hash: string | undefined) => {
          if (hash && this.rules.blocksHash(hash)) {
            this.facts.blocked.add(script);
            this.seen(script);
          } else {
            this.run(script, type);
          }
        }),
      ),
    );
  }

  /**
   * In block mode, until the fresh config has come (one round trip), a script inserted by code waits: a rule
   * added or lifted since the last page view then applies to it. Inserted scripts are asynchronous anyway, so waiting
   * changes nothing the page may rely on; past `WAIT_FOR_CONFIG_MS` they run (fail open).
   */
  holdUntilConfig(): void {
    this.waiting = [];
    setTimeout(() => this.configReady(), WAIT_FOR_CONFIG_MS);
  }

  configReady = safe(() => {
    const waiting = this.waiting || [];
    this.waiting = undefined;
    for (const [script, type] of waiting) {
      if (this.blocks(script)) {
        this.stop(script);
        this.seen(script);
      } else {
        this.run(script, type);
      }
    }
  });

  /**
   * A neutralized script is not "already started" (HTML: prepare the script element), so restoring its type and
   * setting its source again prepares it anew, on the same element (its load and error listeners stay).
   */
  private run(script: HTMLScriptElement, type: string | null): void {
    this.released.add(script);
    if (type === null) script.removeAttribute('type');
    else script.setAttribute('type', type);
    const src = script.getAttribute('src');
    if (src !== null) {
      script.removeAttribute('src');
      script.setAttribute('src', src);
    } else {
      // eslint-disable-next-line no-self-assign -- setting an inline script's text again is what re-arms it, as src does
      script.text = script.text;
    }
  }
}

let tagManagerSeen = false;
/** Whether a tag manager's container script (`…/gtm.js?id=…`, what `gtmContainer` reads) is on the page. */
const tagManagerPresent = (): boolean => tagManagerSeen || (tagManagerSeen = !!document.querySelector('script[src*="/gtm.js?"]'));

function scriptsIn(added: unknown): HTMLScriptElement[] {
  if (added instanceof HTMLScriptElement) return [added];
  if (added instanceof Element) {
    // a live collection, cheap to ask: most added elements hold no script
    const inside = added.getElementsByTagName('script');
    return inside.length ? Array.prototype.slice.call(inside) : [];
  }
  if (added instanceof DocumentFragment) return added.firstChild ? Array.prototype.slice.call(added.querySelectorAll('script')) : [];
  return [];
}
