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
/** How many labels the most specific of the domains matching the host has; -1 when none matches. */
const closestDomain = (host: string, domains: string[]): number =>
  domains.reduce((best, domain) => (host === domain || host.endsWith(`.${domain}`) ? Math.max(best, domain.split('.').length) : best), -1);
/** A url rule names one URL; one without a query covers that URL with any query, as a script's identity does. */
const matchesUrl = (href: string, urls: string[]): boolean => urls.indexOf(href) >= 0 || urls.indexOf(href.split('?')[0]) >= 0;
const values = (rules: Rule[], target: string): string[] => rules.filter((rule) => rule.target === target).map((rule) => rule.value);

/**
 * Block mode's decisions: an external script by its host (a domain rule matches the domain and its
 * subdomains) or its URL (a url rule, fragment ignored), any script by its content hash (`sha384-…`, from its
 * `integrity` attribute or its inline text). The most specific rule wins: a URL before a domain, a subdomain
 * before its parent, and a block before an allow of the same domain. So an authorized script's allow rule on its
 * URL lets it run on a blocked host, and a block on a host stops it whatever allows a parent domain.
 */
export class BlockRules {
  private active = false;
  private blockedDomains: string[] = [];
  private blockedUrls: string[] = [];
  private allowedDomains: string[] = [];
  private allowedUrls: string[] = [];
  private blockedHashes = new Set<string>();

  update(config: SdkConfig | undefined): void {
    const rules = config ? config.rules : { block: [], allow: [] };
    this.active = !!config && !config.paused && config.config.mode === 'block';
    this.blockedDomains = values(rules.block, 'domain').map((domain) => domain.toLowerCase());
    this.blockedUrls = values(rules.block, 'url');
    this.allowedDomains = values(rules.allow, 'domain').map((domain) => domain.toLowerCase());
    this.allowedUrls = values(rules.allow, 'url');
    this.blockedHashes = new Set(values(rules.block, 'hash'));
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
    const href = absolute(url);
    if (matchesUrl(href, this.allowedUrls)) return false;
    if (matchesUrl(href, this.blockedUrls)) return true;
    const blocked = closestDomain(host, this.blockedDomains);
    return blocked >= 0 && blocked >= closestDomain(host, this.allowedDomains);
  }

  /** `integrity` may list several hashes: any blocked one blocks. */
  blocksHash(hashes: string | undefined): boolean {
    if (!this.active || !hashes) return false;
    return hashes.split(/\s+/).some((hash) => this.blockedHashes.has(hash));
  }
}
