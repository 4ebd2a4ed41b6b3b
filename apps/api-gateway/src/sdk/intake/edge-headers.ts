import { LruCache } from '@pss/kernel';

/** Store pages whose last forwarded headers the edge remembers (a key and some 300 bytes each: about 15 MB). */
export const EDGE_HEADER_PAGES_CACHED = 50_000;
/** After this, the same headers go to inventory again: a change recorded through another replica shows within it. */
export const EDGE_HEADERS_FRESH_MS = 60_000;

/**
 * The security headers of each store page as last recorded through this gateway, so a page view whose headers did
 * not change costs no bus hop. The fingerprint is the headers as reported: another order of the same headers
 * is only a miss, which inventory settles.
 */
export class EdgeHeaders {
  private readonly pages = new LruCache<string, { fingerprint: string; freshUntil: number }>(EDGE_HEADER_PAGES_CACHED);

  unchanged(storeId: string, pageUrl: string, headers: Record<string, string>, now: number): boolean {
    const page = this.pages.get(pageKey(storeId, pageUrl));
    return page !== undefined && page.freshUntil > now && page.fingerprint === JSON.stringify(headers);
  }

  remember(storeId: string, pageUrl: string, headers: Record<string, string>, now: number): void {
    this.pages.set(pageKey(storeId, pageUrl), { fingerprint: JSON.stringify(headers), freshUntil: now + EDGE_HEADERS_FRESH_MS });
  }
}

/** Inventory records headers per page path: a query string is the same page. */
const pageKey = (storeId: string, pageUrl: string): string => `${storeId} ${new URL(pageUrl).pathname}`;
