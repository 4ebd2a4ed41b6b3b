import { normalizeDomain } from '../stores/domain-name';
import { HostSuffixIndex } from './host-suffix';
import threatData from './threat-hosts.json';
import vendorData from './vendors.json';

export const VENDOR_CATEGORIES = [
  'payment',
  'analytics',
  'tag_manager',
  'chat',
  'cdn',
  'ecommerce_platform',
  'advertising',
  'fraud_prevention',
  'consent',
] as const;
export type VendorCategory = (typeof VENDOR_CATEGORIES)[number];

export interface Vendor {
  vendor_id: string;
  name: string;
  category: VendorCategory;
  /** Script-serving domains, matched by suffix. */
  domains: string[];
}

/** Versions of the data files, so a classification can say which catalog and threat list it was made with. */
export const catalogVersion: string = vendorData.version;
export const threatListVersion: string = threatData.version;

// Both files are checked as they load: a typo in the data stops the service at start, not a lookup later.
const vendors = new HostSuffixIndex(vendorData.vendors.map(asVendor).flatMap((vendor) => vendor.domains.map((domain) => [domain, vendor] as const)));
const threats = new HostSuffixIndex(threatData.hosts.map(({ host }) => [canonicalHost(host), true] as const));

/** The vendor serving scripts from `host` (any spelling of a host name); undefined for IP addresses. */
export function findVendor(host: string): Vendor | undefined {
  const key = normalizeDomain(host);
  return key === undefined ? undefined : vendors.find(key);
}

/** Whether `host` is, or is under, a known skimmer or exfiltration host. */
export function isThreatHost(host: string): boolean {
  const key = normalizeDomain(host);
  return key !== undefined && threats.find(key) !== undefined;
}

function asVendor(entry: (typeof vendorData.vendors)[number]): Vendor {
  if (!(VENDOR_CATEGORIES as readonly string[]).includes(entry.category)) {
    throw new Error(`vendor ${entry.vendor_id} has an unknown category ${entry.category}`);
  }
  return { ...entry, category: entry.category as VendorCategory, domains: entry.domains.map(canonicalHost) };
}

/** Data files list hosts in their normalized form, so what is read is what is matched. */
function canonicalHost(host: string): string {
  if (normalizeDomain(host) !== host) throw new Error(`${host} is not a normalized host name`);
  return host;
}
