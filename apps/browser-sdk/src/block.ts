import { externalRules, stopsExternal, type ExternalRules } from '@pss/contracts/sdk/page-rules';
import type { SdkConfig } from './config';

const hostOf = (url: string): string | undefined => {
  try {
    return new URL(url, location.href).hostname.toLowerCase();
  } catch {
    return undefined;
  }
};
const absolute = (url: string): string => {
  try {
    return new URL(url, location.href).href.replace(/#.*$/, '');
  } catch {
    return url;
  }
};

/**
 * Block mode's decisions: an external script by its host (a domain rule matches the domain and its
 * subdomains) or its URL (a url rule, fragment ignored), any script by its content hash (`sha384-…`, from its
 * `integrity` attribute or its inline text). The most specific rule wins: a URL before a domain, a subdomain
 * before its parent, and a block before an allow of the same domain (libs/contracts page-rules.ts, which inventory
 * uses to tell what a block will stop). The URLs of authorized scripts count as allows: an authorized script runs
 * on a host blocked for another of its scripts, and a block on a host stops the rest whatever allows a parent domain.
 */
export class BlockRules {
  private active = false;
  private external: ExternalRules = externalRules({ block: [], allow: [] }, []);
  private blockedHashes = new Set<string>();

  update(config: SdkConfig | undefined): void {
    const rules = config ? config.rules : { block: [], allow: [] };
    this.active = !!config && !config.paused && config.config.mode === 'block';
    // A config kept from before authorized URLs were served has none.
    this.external = externalRules(rules, (config && config.authorized_urls) || []);
    this.blockedHashes = new Set(rules.block.filter((rule) => rule.target === 'hash').map((rule) => rule.value));
  }

  /** Block mode, from the fresh config or the last page view's. */
  get enforcing(): boolean {
    return this.active;
  }

  get hashRules(): boolean {
    return this.active && this.blockedHashes.size > 0;
  }

  blocksUrl(url: string): boolean {
    if (!this.active) return false;
    const host = hostOf(url);
    if (!host) return false;
    return stopsExternal(this.external, host, absolute(url));
  }

  /** `integrity` may list several hashes: any blocked one blocks. */
  blocksHash(hashes: string | undefined): boolean {
    if (!this.active || !hashes) return false;
    return hashes.split(/\s+/).some((hash) => this.blockedHashes.has(hash));
  }
}

/** A type browsers do not run: a stopped script stays in the document, as data. */
export const NEUTRAL_TYPE = 'javascript/blocked';

/** Stops a script before it runs; it gets an `error` event, as a failed load would, so loaders waiting on it go on. */
export function neutralize(script: HTMLScriptElement): void {
  script.type = NEUTRAL_TYPE;
  setTimeout(() => script.dispatchEvent(new Event('error')), 0);
}
