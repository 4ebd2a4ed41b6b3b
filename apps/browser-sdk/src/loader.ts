import { BlockRules, neutralize } from './block';
import { cachedConfig, enforcing } from './config';

/** What the SDK takes over from the loader when it starts (main.ts). */
export interface LoaderHandover {
  /** The loader's own inline script: the SDK's, not the shop's, so not in the inventory. */
  element: HTMLScriptElement;
  /** Scripts the HTML parser added that the last page view's rules stopped before the SDK came. */
  stopped: HTMLScriptElement[];
  /** Stops watching: from now on the SDK, with the fresh config, decides. */
  release(): void;
}

declare global {
  interface Window {
    __pssLoader?: LoaderHandover;
  }
}

/**
 * In block mode (the last page view's config is kept only then), the scripts the HTML parser adds before the SDK
 * comes are decided by that config's rules, as the SDK would decide them: a MutationObserver's callback runs
 * before the parser prepares the script it added, so a stopped one never runs. Scripts inserted by code before the
 * SDK comes are not watched: they start loading at insertion, before any observer could see them.
 */
function guardFromLastView(key: string): Pick<LoaderHandover, 'stopped' | 'release'> | undefined {
  const config = cachedConfig(key);
  if (!config || !enforcing(config)) return undefined;
  const rules = new BlockRules();
  rules.update(config);
  const stopped: HTMLScriptElement[] = [];
  const observer = new MutationObserver((records) => {
    try {
      for (const record of records) {
        for (let i = 0; i < record.addedNodes.length; i += 1) {
          const script = record.addedNodes[i] as HTMLScriptElement;
          if (script.nodeName === 'SCRIPT' && ((script.src && rules.blocksUrl(script.src)) || rules.blocksHash(script.integrity))) {
            neutralize(script);
            stopped.push(script);
          }
        }
      }
    } catch {
      // never into the page: the SDK decides on what is left when it comes
    }
  });
  observer.observe(document.documentElement, { childList: true, subtree: true });
  return { stopped, release: () => observer.disconnect() };
}

/**
 * The install snippet's inline code (docs/sdk.md, "Install"). It loads the SDK without ever holding the page: a
 * `<script src>` of any kind delays the page's `load` event until its server answers, so a service that accepts
 * connections and never answers kept checkouts blank; a `<link rel=preload>` inserted by code does not, and the
 * script inserted once the preload has arrived reuses its bytes (no second request that could hang). Without
 * preload (old browsers) the script is inserted at once.
 *
 * It reads its tag's `data-src` (the SDK's URL, with the key) and `data-key`, hands the SDK `data-before` (how
 * many scripts the document had before the snippet, for the installation-order check), and under Trusted Types
 * asks for a policy named `pss-loader`. Built into libs/contracts/src/sdk/sdk-loader.generated.ts
 * (`npm run -s build:loader`): its bytes are what a shop's CSP hash allows, so they change only on purpose.
 */
function load(self: HTMLScriptElement): void {
  const src = self.getAttribute('data-src');
  const key = self.getAttribute('data-key');
  if (!src || !key || window.__pssLoader) return;
  const before = document.scripts.length - 1;
  let guard: Pick<LoaderHandover, 'stopped' | 'release'> | undefined;
  try {
    guard = guardFromLastView(key);
  } catch {
    // no storage, no observer: the SDK decides alone when it comes
  }
  // Fixed for the page's life: a script running after the loader cannot name itself the loader to leave the inventory.
  Object.defineProperty(window, '__pssLoader', { value: { element: self, stopped: [], release: () => undefined, ...guard } });
  let policy: { createScriptURL(url: string): string } | undefined;
  try {
    policy = (window as unknown as { trustedTypes: { createPolicy(name: string, rules: object): typeof policy } }).trustedTypes.createPolicy('pss-loader', { createScriptURL: (url: string) => url });
  } catch {
    // no Trusted Types, or the policy not allowed: a plain URL
  }
  const head = document.head || document.documentElement;
  const run = () => {
    const script = document.createElement('script');
    script.async = true;
    script.crossOrigin = 'anonymous';
    script.setAttribute('data-key', key);
    script.setAttribute('data-before', String(before));
    script.src = policy ? policy.createScriptURL(src) : src;
    head.appendChild(script);
  };
  const preload = document.createElement('link');
  if (!preload.relList || !preload.relList.supports || !preload.relList.supports('preload')) return run();
  preload.rel = 'preload';
  preload.as = 'script';
  preload.crossOrigin = 'anonymous';
  preload.href = src;
  preload.onload = run;
  head.appendChild(preload);
}

const self = document.currentScript;
if (self) load(self as HTMLScriptElement);
