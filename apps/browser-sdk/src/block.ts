import type { Rule, SdkConfig } from './config';

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
const underDomain = (host: string, domains: string[]): boolean => domains.some((domain) => host === domain || host.endsWith(`.${domain}`));
const values = (rules: Rule[], target: string): string[] => rules.filter((rule) => rule.target === target).map((rule) => rule.value.toLowerCase());

/**
 * Block mode's decisions: an external script by its host (a domain rule matches the domain and its
 * subdomains) or its exact URL (a url rule, fragment ignored), any script by its content hash (`sha384-…`, from its `integrity` attribute or its inline text).
 * An allow rule for the host wins over a block rule.
 */
export class BlockRules {
  private active = false;
  private blockedDomains: string[] = [];
  private blockedUrls: string[] = [];
  private allowedDomains: string[] = [];
  private blockedHashes = new Set<string>();

  update(config: SdkConfig | undefined): void {
    this.active = !!config && !config.paused && config.config.mode === 'block';
    this.blockedDomains = config ? values(config.rules.block, 'domain') : [];
    this.blockedUrls = config ? config.rules.block.filter((rule) => rule.target === 'url').map((rule) => rule.value) : [];
    this.allowedDomains = config ? values(config.rules.allow, 'domain') : [];
    this.blockedHashes = new Set(config ? config.rules.block.filter((rule) => rule.target === 'hash').map((rule) => rule.value) : []);
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
    if (!host || underDomain(host, this.allowedDomains)) return false;
    return underDomain(host, this.blockedDomains) || this.blockedUrls.indexOf(absolute(url)) >= 0;
  }

  /** `integrity` may list several hashes: any blocked one blocks. */
  blocksHash(hashes: string | undefined): boolean {
    if (!this.active || !hashes) return false;
    return hashes.split(/\s+/).some((hash) => this.blockedHashes.has(hash));
  }
}
