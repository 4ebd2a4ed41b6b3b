import { getPublicSuffix } from 'tldts';
import { conflict } from '@pss/kernel';

/**
 * Read models of stores (owner: inventory; readers: api-gateway, SDK endpoints, other services).
 * Field names are the API's, so a document is the resource minus bookkeeping.
 */
export const STORES = 'stores';
export const PAYMENT_PAGES = 'payment_pages';
/** Every SDK key that authenticates a store: the current one and rotated ones until they expire. */
export const SDK_KEYS = 'sdk_keys';

export type StoreStatus = 'active' | 'suspended' | 'deleted';

/** The API's words for a change refused because its store is suspended; the dashboard says it in the person's language. */
export const STORE_SUSPENDED_MESSAGE = 'Store is suspended; it can be read but not changed';

/**
 * A suspended store is read-only (decisions.md), and so is what is scoped to it: its rules, webhooks, report
 * schedule and policies. Its key takes no SDK traffic, so a changed setting there would act on nothing.
 */
export function assertStoreWritable(store: { status?: string }): void {
  if (store.status !== 'active') throw conflict(STORE_SUSPENDED_MESSAGE);
}

/**
 * `staging`: a store to try the SDK on before going live, whose domain and expected iframe origins may be local
 * (localhost, 127.0.0.1, [::1], *.localhost, *.test, with ports). Shown on every store and report, so evidence
 * from it is never taken for production's.
 */
export const STORE_ENVIRONMENTS = ['production', 'staging'] as const;
export type StoreEnvironment = (typeof STORE_ENVIRONMENTS)[number];

/**
 * Hosts only a developer's machine or a test network resolves: loopback, and the names RFC 6761 keeps from the
 * public DNS (`.localhost`, `.test`). A staging store may use them; a production store's SDK never runs there.
 */
export function isLocalHost(host: string): boolean {
  return host === '127.0.0.1' || host === '[::1]' || /^(?:[a-z0-9-]+\.)*localhost$|^(?:[a-z0-9-]+\.)+test$/.test(host);
}

/**
 * Whether a page is one of the store's (docs/decisions.md, issue 29): its host is the store's domain or a
 * subdomain of it, and the domain's own port when it names one. A leading `www.` of the domain is not part of
 * the shop's site (unless what follows is a public suffix) (`www.loja.com.br` takes `loja.com.br` and `checkout.loja.com.br`). Payment pages are paths on
 * the domain, so their hosts are covered. A staging store also takes pages from any local host: a developer
 * serves one shop on localhost, 127.0.0.1 and a `.test` name alike, and its evidence is marked staging anyway.
 */
export function isOnStoreDomain(pageUrl: string, store: { domain: string; environment?: StoreEnvironment }): boolean {
  let page: URL;
  try {
    page = new URL(pageUrl);
  } catch {
    return false;
  }
  const host = page.hostname.replace(/\.$/, '');
  if (store.environment === 'staging' && isLocalHost(host)) return true;
  // The domain as the store keeps it: a lower-case host (IPv6 in brackets), then `:port` in staging only.
  const [, domainHost, port = ''] = /^(.*?)(?::(\d+))?$/.exec(store.domain)!;
  if (port && page.port !== port) return false;
  const site = domainHost.startsWith('www.') && getPublicSuffix(domainHost.slice(4)) !== domainHost.slice(4) ? domainHost.slice(4) : domainHost;
  return host === site || host.endsWith(`.${site}`);
}

const globs = new Map<string, RegExp>();

/**
 * Path globs, of payment pages' `url_pattern` and of policies: `*` matches within one path segment, `**` across
 * segments, `?` one character; everything else is literal. Compiled once per pattern.
 */
export function globToRegExp(glob: string): RegExp {
  let compiled = globs.get(glob);
  if (!compiled) {
    const source = glob
      .split(/(\*\*|\*|\?)/)
      .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part === '?' ? '[^/]' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
      .join('');
    compiled = new RegExp(`^${source}$`);
    globs.set(glob, compiled);
  }
  return compiled;
}

export const matchesGlob = (path: string, glob: string): boolean => globToRegExp(glob).test(path);

/** A path the store declared: one of its payment pages' `url_pattern`s matches it. */
export const isDeclaredPage = (path: string, paymentPages: readonly string[]): boolean => paymentPages.some((pattern) => matchesGlob(path, pattern));

export interface SdkConfigView {
  mode: 'monitor' | 'block';
  calibration_seconds: number;
  overlay_check_interval_ms: number;
  installation_order_policy: 'warn' | 'silent';
  payment_methods: string[];
  sensitive_fields: string[] | null;
  expected_iframe_origins: string[];
  allowed_service_workers: string[];
  gtm_containers: string[];
  developer_mode: boolean;
  release_channel: 'stable' | 'latest';
  updated_at: string;
}

export interface RecipientView {
  id: string;
  method: string;
  key_masked: string;
  key_hash: string;
  label: string;
  active: boolean;
  created_at: string;
}

/**
 * Where a production store stands on its domain (issue 29, item 9d): `unverified` from creation, claims of several
 * organizations side by side; `verified` once its DNS TXT challenge was met, the domain is its alone; `lost` when
 * another store verified the domain, after which its SDK key is refused.
 */
export const DOMAIN_CLAIMS = ['unverified', 'verified', 'lost'] as const;
export type DomainClaimStatus = (typeof DOMAIN_CLAIMS)[number];

/** The TXT record that proves a production store's domain; null for staging stores. */
export interface DomainVerificationView {
  record: string;
  value: string;
  verified_at: string | null;
}

export interface StoreDocument {
  _id: string;
  org_id: string;
  name: string;
  domain: string;
  environment: StoreEnvironment;
  country: string;
  timezone: string;
  status: StoreStatus;
  sdk_key: string;
  safe_slug: string | null;
  emergency_contact: string | null;
  created_at: string;
  updated_at: string;
  sdk_config: SdkConfigView | null;
  recipients: RecipientView[];
  domain_claim: DomainClaimStatus;
  domain_verification: DomainVerificationView | null;
}

export interface PaymentPageDocument {
  _id: string;
  store_id: string;
  org_id: string;
  url_pattern: string;
  url: string;
  domain: string;
  is_payment_page: boolean;
  mode: string;
  payment_methods: string[];
  status: string;
  created_at: string;
}

export interface SdkKeyDocument {
  /** The key itself: public by design (it sits in the shop's page). */
  _id: string;
  store_id: string;
  org_id: string;
  /** null while it is the store's current key. */
  valid_until: string | null;
}
