import type { RuleDocument } from '../read-models/rule';

/**
 * How block mode decides on an external script, shared by the SDK that enforces it (browser-sdk/src/block.ts)
 * and by inventory, which tells a shop what a block rule will stop before the next page view does. Bundled into
 * the SDK: ES2017, no dependency.
 */

/** A rule as the SDK config carries it (`GET /sdk/v1/config`, `rules.block` and `rules.allow`). */
export interface PageRule {
  id: string;
  target: string;
  value: string;
}

/** The rules that decide on an external script, by what they name. */
export interface ExternalRules {
  blockedDomains: string[];
  blockedUrls: string[];
  allowedDomains: string[];
  allowedUrls: string[];
}

/** A store's active rules as the SDK config carries them. */
export function pageRules(rules: ReadonlyArray<Pick<RuleDocument, '_id' | 'type' | 'target' | 'value'>>): { block: PageRule[]; allow: PageRule[] } {
  const of = (type: RuleDocument['type']) => rules.filter((rule) => rule.type === type).map(({ _id, target, value }) => ({ id: _id, target, value }));
  return { block: of('block'), allow: of('allow') };
}

const values = (rules: PageRule[], target: string): string[] => rules.filter((rule) => rule.target === target).map((rule) => rule.value);

/**
 * The store's rules with the URLs of its authorized external scripts as allows: an authorized script keeps
 * running on a host blocked for another script of it (docs/decisions.md, issue 34).
 */
export function externalRules(rules: { block: PageRule[]; allow: PageRule[] }, authorizedUrls: readonly string[]): ExternalRules {
  return {
    blockedDomains: values(rules.block, 'domain').map((domain) => domain.toLowerCase()),
    blockedUrls: values(rules.block, 'url'),
    allowedDomains: values(rules.allow, 'domain').map((domain) => domain.toLowerCase()),
    allowedUrls: values(rules.allow, 'url').concat(authorizedUrls),
  };
}

/** How many labels the most specific of the domains matching the host has; -1 when none matches. */
const closestDomain = (host: string, domains: string[]): number =>
  domains.reduce((best, domain) => (host === domain || host.endsWith(`.${domain}`) ? Math.max(best, domain.split('.').length) : best), -1);

/** A url rule names one URL; one without a query covers that URL with any query, as a script's identity does. */
const matchesUrl = (href: string, urls: string[]): boolean => urls.indexOf(href) >= 0 || urls.indexOf(href.split('?')[0]) >= 0;

/**
 * Whether block mode stops the external script at `href` (absolute, no fragment) served from `host` (lower
 * case). The most specific rule wins: a URL before a domain (an allowed URL before a blocked one), a subdomain
 * before its parent, and a block before an allow of the same domain.
 */
export function stopsExternal(rules: ExternalRules, host: string, href: string): boolean {
  if (matchesUrl(href, rules.allowedUrls)) return false;
  if (matchesUrl(href, rules.blockedUrls)) return true;
  const blocked = closestDomain(host, rules.blockedDomains);
  return blocked >= 0 && blocked >= closestDomain(host, rules.allowedDomains);
}

/** An external script's URL as its identity and its url rules have it: without query or fragment (the query may be a visitor's). */
export function scriptUrl(src: string): string {
  const url = new URL(src);
  return `${url.protocol}//${url.host.toLowerCase()}${url.pathname}`;
}
