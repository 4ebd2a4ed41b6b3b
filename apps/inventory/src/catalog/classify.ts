import { getDomain } from 'tldts';
import { isLocalHost, type ScriptType } from '@pss/contracts';
import { normalizeDomain } from '../stores/domain-name';
import { findVendor } from './catalog';
import { isHostUnder } from './host-suffix';

export interface ScriptSource {
  /** Host of an external script's URL; null for inline scripts. */
  host: string | null;
  inline: boolean;
}

export interface ScriptClassification {
  type: ScriptType;
  vendor_id: string | null;
  category: string | null;
}

const FIRST_PARTY: ScriptClassification = { type: 'first_party', vendor_id: null, category: null };
const UNKNOWN: ScriptClassification = { type: 'unknown', vendor_id: null, category: null };

/**
 * Who a script belongs to, as seen from a store: the store itself (its registrable domain or under it, and
 * inline scripts, which are part of its page), a vendor of the catalog, or nobody known.
 */
export function classifyScript(script: ScriptSource, storeDomain: string): ScriptClassification {
  if (script.inline) return FIRST_PARTY;
  const host = script.host === null ? undefined : normalizeDomain(script.host) ?? localHost(script.host);
  if (host === undefined) return UNKNOWN;
  if (isHostUnder(host, registrableDomain(storeDomain))) return FIRST_PARTY;
  const vendor = findVendor(host);
  return vendor ? { type: 'known_third', vendor_id: vendor.vendor_id, category: vendor.category } : UNKNOWN;
}

/**
 * The domain a store's owner controls, from the Public Suffix List: `loja.exemplo.com.br` → `exemplo.com.br`.
 * Private suffixes count (`loja.myshopify.com` stays itself), or every shop of a platform would be first party
 * to every other. A store on a bare suffix owns only its own host.
 */
function registrableDomain(storeDomain: string): string {
  // A staging store's domain may be local and carry a port (`localhost:3000`): its scripts come from the host.
  const host = normalizeDomain(storeDomain) ?? storeDomain.toLowerCase().replace(/:\d+$/, '');
  return getDomain(host, { allowPrivateDomains: true, extractHostname: false }) ?? host;
}

/** A local script host is only ever a staging store's own (production domains are public), so it may match one. */
function localHost(host: string): string | undefined {
  const lower = host.toLowerCase();
  return isLocalHost(lower) ? lower : undefined;
}
