import { sri384 } from './hashing';
import { refusedIntegrity } from './sri';

export interface ContentHash {
  hash: string;
  hash_source: 'sdk';
  size_bytes: number;
  /** The page's `integrity` tokens these bytes fail: the browser refused to run them. */
  refused_integrity?: string;
}

/**
 * The SDK's network reads, from the page itself: no worker. Chromium downloads and digests (WebCrypto) off the
 * page's main thread already, so only a few promise callbacks run there; creating a `blob:` worker cost more than
 * all of them (see docs/benchmarks.md, benchmark 7). Same-origin scripts are fetched with the page's cookies
 * (the bytes the page got), others without, in CORS mode; `force-cache` serves them from the HTTP cache the page
 * just filled. `checked` are the element's `integrity` tokens the browser checks (sri.ts), compared with the bytes.
 */
export async function contentHash(url: string, checked: string[] = []): Promise<ContentHash | undefined> {
  try {
    const sameOrigin = url.indexOf(`${location.origin}/`) === 0;
    const response = await fetch(url, { mode: 'cors', credentials: sameOrigin ? 'same-origin' : 'omit', cache: 'force-cache' });
    if (!response.ok) return undefined;
    const bytes = await response.arrayBuffer();
    const hash = await sri384(bytes);
    if (!hash) return undefined;
    const content: ContentHash = { hash, hash_source: 'sdk', size_bytes: bytes.byteLength };
    const refused = await refusedIntegrity(bytes, hash, checked);
    if (refused) content.refused_integrity = refused;
    return content;
  } catch {
    return undefined; // no CORS: the browser will not show the bytes
  }
}

/**
 * Whether a CORS re-fetch of `url` will be let through, as the browser's own load of the script shows, so that the
 * SDK never puts a CORS error in the shop's console: same origin; a load in CORS mode that passed (its resource
 * timing entry has a `responseStatus`, which stays 0 for a no-cors load and for a refused one); where the browser
 * exposes no `responseStatus`, a `crossorigin` attribute (the browser checked CORS itself; a refusal is already its
 * own error). A script loaded without `crossorigin` shows nothing of its CORS headers, even with
 * `Timing-Allow-Origin`: it is not re-fetched.
 */
export function readableByCors(url: string, element?: HTMLScriptElement): boolean {
  if (url.indexOf(`${location.origin}/`) === 0) return true;
  const entries = performance.getEntriesByName(url, 'resource') as Array<PerformanceResourceTiming & { responseStatus?: number }>;
  for (const entry of entries) if (entry.responseStatus) return true;
  if (entries.length && entries[0].responseStatus !== undefined) return false;
  return !!element && element.hasAttribute('crossorigin');
}

/** The named response headers of a same-origin HEAD of `url`; undefined when it fails. */
export async function headersOf(url: string, names: string[]): Promise<Record<string, string> | undefined> {
  const response = await fetch(url, { method: 'HEAD', credentials: 'same-origin', cache: 'no-store' });
  if (!response.ok) return undefined;
  const headers: Record<string, string> = {};
  for (const name of names) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return headers;
}
