import type { ContentHash } from './fetched';
import { remember, remembered } from './tab-store';

const KEPT = 'pss.c.';

/**
 * The hash this tab already computed for `url`, when the browser shows it ran the same bytes again: its resource
 * timing says the script came from the HTTP cache (nothing transferred) or was revalidated (a 304: headers only,
 * fewer bytes than the body), and the body is the size that was hashed. A repeat view then reports the hash without
 * fetching and digesting the script again: the hash is still of what ran on this page view. New bytes, or sizes the
 * browser hides (a cross-origin script without `Timing-Allow-Origin`), are fetched and hashed as on a first view.
 */
export function knownContent(url: string): ContentHash | undefined {
  const entries = performance.getEntriesByName(url, 'resource') as PerformanceResourceTiming[];
  const entry = entries[entries.length - 1];
  if (!entry || !entry.encodedBodySize || entry.transferSize >= entry.encodedBodySize) return undefined;
  const kept = (remembered('session', KEPT + url) || '').split(' ');
  return kept[1] && +kept[1] === entry.decodedBodySize ? { hash: kept[0], hash_source: 'sdk', size_bytes: +kept[1] } : undefined;
}

/** Kept for the tab's next page views (sessionStorage: this tab only, gone with it); never a refused script's. */
export function keepContent(url: string, content: ContentHash): void {
  if (!content.refused_integrity) remember('session', KEPT + url, `${content.hash} ${content.size_bytes}`);
}
