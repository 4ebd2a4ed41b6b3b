import { LruCache } from '@pss/kernel';
import type { UnauthorizedRead } from './connection.events';

/** Page views whose unauthorized card-field read this process remembers (a key and a read of some 300 bytes: 6 MB). */
export const PAGE_VIEW_READS_CACHED = 20_000;
/** How long a page view lasts, for this purpose: a skimmer sends what it read within it. */
export const PAGE_VIEW_READ_MS = 30 * 60_000;

/** A script on a read's stack, and whether the inventory holds it authorized. */
export interface ReadChainLink extends Omit<UnauthorizedRead, 'field'> {
  scriptAuthorized: boolean;
}

/**
 * The card-field reads by scripts that are not authorized, per page view (the store, the tab's session and the
 * page): a read and the request that sends it out may come in different batches of the view. The read is held
 * against the outermost unauthorized script on its stack, as the alert holds it: a skimmer calls the libraries
 * it reads through. In memory: SDK batches of a store reach one inventory replica (keyed by store).
 */
export class PageViewReads {
  private readonly reads = new LruCache<string, { read: UnauthorizedRead; until: number }>(PAGE_VIEW_READS_CACHED);

  remember(view: string, field: string, chain: ReadChainLink[], now: number): void {
    for (let at = chain.length - 1; at >= 0; at -= 1) {
      const { scriptId, src, scriptAuthorized } = chain[at];
      if (!scriptAuthorized) {
        this.reads.set(view, { read: { scriptId, src, field }, until: now + PAGE_VIEW_READ_MS });
        return;
      }
    }
  }

  of(view: string, now: number): UnauthorizedRead | null {
    const found = this.reads.get(view);
    return found && found.until > now ? found.read : null;
  }
}

/** A page view as batches tell it: the tab's session on one page. */
export const pageViewOf = (storeId: string, sessionId: string, pageUrl: string): string => `${storeId} ${sessionId} ${pageUrl}`;
