import { isLocalHost, type StoreEnvironment } from '@pss/contracts';
import { normalizeDomain } from './domain-name';

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
/** An origin as people write one: scheme, host, port, at most a trailing slash; a path or query is not an origin. */
const ORIGIN_ONLY = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*\/?$/i;
const STAGING_HINT =
  'to try it on localhost, 127.0.0.1, [::1], *.localhost or *.test (ports allowed), create a staging store: "environment": "staging"';

/**
 * A store's domain. Production: the spec's public host name (scheme, path and port stripped). Staging: a public
 * or local host, keeping its port, so two shops on one machine (`localhost:3000`, `localhost:4000`) are two stores.
 */
export function normalizeStoreDomain(input: string, environment: StoreEnvironment): string | undefined {
  if (environment === 'production') {
    const domain = normalizeDomain(input);
    return domain && allowedHost(domain, environment);
  }
  const authority = authorityOf(input);
  const host = authority && allowedHost(authority.host, environment);
  return host && (authority.port ? `${host}:${authority.port}` : host);
}

export function domainRefusal(input: string, environment: StoreEnvironment): string {
  if (environment === 'staging') return 'domain must be a host name, e.g. shop.example.com, localhost:3000 or shop.test';
  const local = isLocalHost(authorityOf(input)?.host ?? '');
  return local
    ? `domain is a local host: a production store needs the shop's public host name, e.g. shop.example.com; ${STAGING_HINT}`
    : 'domain must be a public host name, e.g. shop.example.com';
}

/**
 * One `expected_iframe_origins` entry: an origin (`https://pay.example.com:8443`, kept as the browser serializes
 * it and matched exactly), or the spec's host name (`pay.example.com` or `*.pay.example.com`, kept as the host,
 * matched with its subdomains on any scheme and port). Local hosts only in a staging store.
 */
export function normalizeExpectedIframe(entry: string, environment: StoreEnvironment): string | undefined {
  const trimmed = entry.trim();
  if (!SCHEME.test(trimmed)) {
    const bare = trimmed.replace(/^\*\./, '');
    // Production keeps the spec's normalization (a port or path is dropped); staging reads local hosts too.
    const host = environment === 'production' ? normalizeDomain(bare) : authorityOf(bare)?.host;
    return host && allowedHost(host, environment);
  }
  if (!ORIGIN_ONLY.test(trimmed)) return undefined;
  const url = parseUrl(trimmed);
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password) return undefined;
  return allowedHost(url.hostname, environment) === url.hostname ? url.origin : undefined;
}

export function expectedIframeRefusal(entry: string, environment: StoreEnvironment): string {
  const local = environment === 'production' && isLocalHost(authorityOf(entry.trim().replace(/^\*\./, ''))?.host ?? '');
  return local
    ? `${entry} is a local origin: a production store expects public ones; ${STAGING_HINT}`
    : `${entry} is neither an origin (https://host[:port]) nor a host name (pay.example.com)`;
}

/** The host normalized, when the environment may use it: local hosts (`.test` looks public) only in staging. */
function allowedHost(host: string, environment: StoreEnvironment): string | undefined {
  if (isLocalHost(host)) return environment === 'staging' ? host : undefined;
  return normalizeDomain(host);
}

/** Host (lower case, punycode, IPv6 in brackets) and port, as the URL parser reads them. */
function authorityOf(input: string): { host: string; port: string } | undefined {
  const trimmed = input.trim();
  const url = parseUrl(SCHEME.test(trimmed) ? trimmed : `http://${trimmed}`);
  return url && { host: url.hostname.replace(/\.+$/, ''), port: url.port };
}

function parseUrl(input: string): URL | undefined {
  try {
    return new URL(input);
  } catch {
    return undefined;
  }
}
