import type { ScriptType } from '@pss/contracts';

/** What policies look at: everything known about one script of one store, gathered before evaluation. */
export interface ScriptFacts {
  inline: boolean;
  /** null for inline scripts. */
  host: string | null;
  /** The script URL's path; null for inline scripts. */
  path: string | null;
  type: ScriptType | null;
  category: string | null;
  vendorId: string | null;
  vendorName: string | null;
  sizeBytes: number | null;
  integrityAttr: boolean | null;
  /** The script read or wrote a sensitive field of the page. */
  sensitiveFieldAccess: boolean;
  threat: boolean;
  /** Served from the page's own origin (the store's domain itself). */
  sameOrigin: boolean;
  /** Served by the store's e-commerce platform (a catalog vendor of category `ecommerce_platform`). */
  storeProvider: boolean;
  /** How common the host is across the other organizations (prevalence.ts); null when no policy asked. */
  prevalence: number | null;
  /** The store's domain, for `{domain}` when the script has no host. */
  storeDomain: string;
}
