/**
 * Whether a Content-Security-Policy lets a script element run, by CSP Level 3's source matching reduced to what
 * the inventory knows of a script (its URL, or its hash when inline). Pure: the stale check reads any policy a
 * page sends with it, the service's own or one the shop wrote.
 */

export interface PolicyScript {
  src: string;
  inline: boolean;
  current_hash: string | null;
}

/** A header may carry several policies, comma-separated: the browser enforces each, so each must allow. */
export function policyAllows(header: string, script: PolicyScript, pageOrigin: string): boolean {
  return header.split(',').every((policy) => {
    const sources = scriptSources(policy);
    if (sources === undefined) return true;
    return script.inline ? allowsInline(sources, script.current_hash) : allowsUrl(sources, script.src, pageOrigin);
  });
}

/** The sources script elements are checked against: script-src-elem, else script-src, else default-src. */
function scriptSources(policy: string): string[] | undefined {
  const directives = new Map<string, string[]>();
  for (const directive of policy.split(';')) {
    const [name, ...sources] = directive.trim().split(/\s+/);
    // A repeated directive is ignored after its first occurrence, as browsers do.
    if (name && !directives.has(name.toLowerCase())) directives.set(name.toLowerCase(), sources);
  }
  return directives.get('script-src-elem') ?? directives.get('script-src') ?? directives.get('default-src');
}

function allowsInline(sources: string[], hash: string | null): boolean {
  if (hash !== null && sources.includes(`'${hash}'`)) return true;
  // 'unsafe-inline' counts only while no hash, nonce or 'strict-dynamic' is listed beside it.
  const lower = sources.map((source) => source.toLowerCase());
  return lower.includes("'unsafe-inline'") && !lower.some((source) => /^'(sha256-|sha384-|sha512-|nonce-|strict-dynamic')/.test(source));
}

function allowsUrl(sources: string[], src: string, pageOrigin: string): boolean {
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return false;
  }
  const page = new URL(pageOrigin);
  return sources.some((source) => matchesSource(source, url, page));
}

const HOST_SOURCE = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*|(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*)(?::(\d+|\*))?(\/[^?#]*)?$/i;
const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443' };

function matchesSource(source: string, url: URL, page: URL): boolean {
  const lower = source.toLowerCase();
  if (lower === "'self'") return url.origin === page.origin || (page.protocol === 'http:' && url.protocol === 'https:' && url.host === page.host);
  if (lower === '*') return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === page.protocol;
  if (/^[a-z][a-z0-9+.-]*:$/.test(lower)) return schemeMatches(lower, url.protocol);
  const host = HOST_SOURCE.exec(source);
  if (!host) return false;
  const [, scheme, hostPart, port, path] = host;
  return (
    schemeMatches(scheme ? `${scheme.toLowerCase()}:` : page.protocol, url.protocol) &&
    hostMatches(hostPart.toLowerCase(), url.hostname) &&
    portMatches(port, url) &&
    (path === undefined || pathMatches(path, url.pathname))
  );
}

/** A source's scheme also admits its secure upgrade (http: takes https:, ws: takes wss:). */
function schemeMatches(source: string, actual: string): boolean {
  return source === actual || (source === 'http:' && actual === 'https:') || (source === 'ws:' && actual === 'wss:');
}

function hostMatches(source: string, actual: string): boolean {
  if (source === '*') return true;
  return source.startsWith('*.') ? actual.endsWith(source.slice(1)) : source === actual;
}

function portMatches(source: string | undefined, url: URL): boolean {
  if (source === '*') return true;
  const actual = url.port || DEFAULT_PORTS[url.protocol];
  if (source === undefined) return actual === DEFAULT_PORTS[url.protocol];
  return source === actual;
}

/** A path ending in `/` takes everything under it; any other names one file. The query never counts. */
function pathMatches(source: string, actual: string): boolean {
  const wanted = decoded(source);
  const path = decoded(actual);
  return wanted.endsWith('/') ? path.startsWith(wanted) : path === wanted;
}

function decoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
