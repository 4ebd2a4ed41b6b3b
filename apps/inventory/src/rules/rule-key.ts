import { parse } from 'tldts';
import { deterministicUuid, validationError } from '@pss/kernel';
import type { RuleTarget, RuleType } from '@pss/contracts';
import { normalizeDomain } from '../stores/domain-name';

const RULE_TYPES: Record<RuleType, true> = { block: true, allow: true };
const RULE_TARGETS: Record<RuleTarget, true> = { domain: true, url: true, hash: true };
/** Script URLs longer than this are not worth a rule: browsers and CDNs cap them around here too. */
const RULE_URL_MAX = 2048;

/** What identifies a rule: one per store, type, target and (normalized) value. */
export interface RuleKey {
  storeId: string;
  type: RuleType;
  target: RuleTarget;
  value: string;
}

/** Checks type and target and normalizes the value, so two spellings of one value are one rule. */
export function ruleKey(input: { storeId: string; type: string; target: string; value: string }): RuleKey {
  if (!Object.hasOwn(RULE_TYPES, input.type)) throw invalid('type', `type must be one of ${Object.keys(RULE_TYPES).join(', ')}`);
  if (!Object.hasOwn(RULE_TARGETS, input.target)) {
    throw invalid('target', `target must be one of ${Object.keys(RULE_TARGETS).join(', ')}`);
  }
  const target = input.target as RuleTarget;
  return { storeId: input.storeId, type: input.type as RuleType, target, value: NORMALIZERS[target](input.value.trim()) };
}

/**
 * A rule's id is derived from its key, so one key is one stream: two concurrent creates of the same rule meet
 * on the same stream and the event store keeps only one, with no read-model lookup to race against.
 */
export const ruleId = ({ storeId, type, target, value }: RuleKey): string => deterministicUuid('rule', storeId, type, target, value);

const NORMALIZERS: Record<RuleTarget, (value: string) => string> = { domain, url, hash };

/**
 * A host and its subdomains. `*.` is accepted and dropped (matching is by suffix anyway); a bare public suffix
 * (`com.br`) is refused, as a rule on it would match every site under it. Scripts are also served from hosts that
 * are not public names (an IP address, `localhost`, a name with `_`): those are kept as the browser writes them
 * (`[::1]`), so blocking such a script works like blocking any other.
 */
function domain(value: string): string {
  const unwildcarded = value.replace(/^\*\./, '');
  const host = normalizeDomain(unwildcarded) ?? otherHost(unwildcarded);
  if (!host) throw invalid('value', 'value must be a host name for target domain, e.g. cdn.example.com');
  const parsed = parse(host, { extractHostname: false });
  if (!parsed.isIp && !parsed.domain && parsed.isIcann !== false) throw invalid('value', `value ${host} is a public suffix, not a domain`);
  return host;
}

/** Host names as URLs carry them, underscores included (some CDNs use them), which public names may not. */
const HOST_LABELS = /^(?!-)[a-z0-9_-]{1,63}(?<!-)(\.(?!-)[a-z0-9_-]{1,63}(?<!-))*$/;

/** An IP address or another host a URL may name, in the form a script URL's `hostname` has; undefined for anything else. */
function otherHost(value: string): string | undefined {
  const bareIpv6 = /^[0-9a-f]*:[0-9a-f:.]*:[0-9a-f.]*$/i.test(value);
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${bareIpv6 ? `[${value}]` : value}`;
  try {
    const url = new URL(withScheme);
    if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password) return undefined;
    const host = url.hostname.replace(/\.$/, '');
    return parse(host, { extractHostname: false }).isIp || (host.length <= 253 && HOST_LABELS.test(host)) ? host : undefined;
  } catch {
    return undefined;
  }
}

/** One script URL: absolute http(s), host in lower case (and punycode), fragment dropped; path and query kept. */
function url(value: string): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw invalid('value', 'value must be an absolute http or https URL for target url');
  }
  if (!['http:', 'https:'].includes(parsed.protocol) || !parsed.hostname) {
    throw invalid('value', 'value must be an absolute http or https URL for target url');
  }
  parsed.hash = '';
  if (parsed.href.length > RULE_URL_MAX) throw invalid('value', `value must be at most ${RULE_URL_MAX} characters`);
  return parsed.href;
}

const DIGEST_BYTES = { sha256: 32, sha384: 48, sha512: 64 } as const;
const SRI = /^(sha256|sha384|sha512)-([A-Za-z0-9+/_-]+)(={0,2})$/i;

/**
 * A Subresource Integrity hash (`sha384-…`), the form the SDK reports. base64url and missing padding are
 * accepted and stored as padded base64, since the same digest must give the same rule.
 */
function hash(value: string): string {
  const match = SRI.exec(value);
  const algorithm = match?.[1].toLowerCase() as keyof typeof DIGEST_BYTES | undefined;
  const base64 = match?.[2].replace(/-/g, '+').replace(/_/g, '/');
  const digest = base64 === undefined ? undefined : Buffer.from(base64, 'base64');
  // Re-encoding catches what Buffer's lenient decoder lets through: wrong length, stray bits in the last character.
  if (!algorithm || !digest || digest.length !== DIGEST_BYTES[algorithm] || digest.toString('base64').replace(/=+$/, '') !== base64) {
    throw invalid('value', 'value must be an SRI hash for target hash: sha256-, sha384- or sha512- and the base64 digest');
  }
  return `${algorithm}-${digest.toString('base64')}`;
}

const invalid = (field: string, message: string) => validationError([{ field, message }]);
