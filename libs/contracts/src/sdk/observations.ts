import { createHash } from 'node:crypto';
import { CONNECTION_SCHEMES, CONNECTION_VIAS, MAX_ORIGIN_LENGTH, type ConnectionVia } from './connections';

/**
 * SDK contract v1 (DESIGN.md section 5): what the SDK on a payment page reports. Each observation is checked
 * on its own: a bad one is counted as rejected and never poisons its batch.
 */
export interface ScriptObservation {
  kind: 'script';
  /** Absolute URL of an external script; absent for inline scripts. */
  src?: string;
  inline: boolean;
  /** SRI form, e.g. `sha384-…`; absent when the SDK could not hash the script. */
  hash?: string;
  hash_source?: 'sdk' | 'sri';
  size_bytes?: number;
  integrity_attr?: boolean;
  gtm_container?: string;
  /** Block mode stopped this script before it ran (it matched an active block rule): the attempt, reported. */
  blocked?: boolean;
  /**
   * The browser refused to run the script: the page's `integrity` tokens it checks (those of the strongest
   * algorithm named), none of which is the hash of the bytes served. `hash` is then what is really served.
   */
  refused_integrity?: string;
}

export interface HeadersObservation {
  kind: 'headers';
  /** The page's response headers as the SDK saw them; names are case-insensitive. */
  headers: Record<string, string>;
}

export interface CspViolationObservation {
  kind: 'csp_violation';
  directive: string;
  blocked_uri: string;
  source_file?: string;
}

export interface SensitiveFieldAccessObservation {
  kind: 'sensitive_field_access';
  /** The script that read the field: the innermost on the stack that is not the SDK. */
  src: string;
  field: string;
  /**
   * The other scripts on the stack, which called `src`, innermost first: a skimmer reading through a library
   * (jQuery's `.val()`) is one of them. Absent when `src` read on its own.
   */
  callers?: string[];
}

export interface IframeObservation {
  kind: 'iframe';
  origin: string;
}

export interface PaymentRecipientObservation {
  kind: 'payment_recipient';
  method: string;
  /** SHA-256 (hex) of the normalized payment key shown on the page: the key never leaves the page. */
  key_hash: string;
}

/**
 * An origin the page sent a request to or opened a socket with: only the origin, never a path, a query or a body
 * (field values never leave the page). `initiator` is the script on the stack of the call, when a wrapped method
 * saw it (resource timing names none).
 */
export interface ConnectionObservation {
  kind: 'connection';
  origin: string;
  via: ConnectionVia;
  initiator?: string;
}

export type Observation =
  | ScriptObservation
  | ConnectionObservation
  | HeadersObservation
  | CspViolationObservation
  | SensitiveFieldAccessObservation
  | IframeObservation
  | PaymentRecipientObservation;

export interface ObservationBatch {
  page_url: string;
  session_id: string;
  sdk_version: string;
  observations: Observation[];
}

export const MAX_OBSERVATIONS_PER_BATCH = 500;
/** Scripts a sensitive-field read names besides its reader: each one more script the service looks up. */
export const MAX_CALLERS = 8;
/** Longest URL an observation or a batch carries (a script's `src`, a page, a CSP report's blocked URL). */
export const MAX_URL_LENGTH = 2048;
const SRI_HASH = /^sha(256|384|512)-[A-Za-z0-9+/]+={0,2}$/;
const SRI_LENGTHS: Record<string, number> = { '256': 44, '384': 64, '512': 88 };

/** At most this many tokens of one algorithm in a refused `integrity` (a page pins one, rarely two while rotating). */
export const MAX_REFUSED_INTEGRITY_TOKENS = 4;

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown, max: number): value is string => typeof value === 'string' && value.length > 0 && value.length <= max;
const optional = <T>(value: unknown, check: (v: unknown) => v is T): boolean => value === undefined || check(value);
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';

export function isSriHash(value: unknown): value is string {
  return typeof value === 'string' && SRI_HASH.test(value) && value.length === 'shaNNN-'.length + SRI_LENGTHS[value.slice(3, 6)];
}

/**
 * An absolute http(s) URL that `new URL` surely accepts, recognised without building one (parsing every script
 * `src` was most of the SDK check's cost). Only plain hosts: dot-separated labels of letters, digits and hyphens
 * whose last label starts with a letter (a last label that is a number makes the host an IPv4 address), and no
 * label starting `xn--` (punycode that IDNA may refuse); an optional port of at most four digits (never over
 * 65535). After the host comes `/`, `?`, `#` or the end: the parser refuses nothing in a path, query or fragment.
 * Anything else (userinfo, IP addresses, IDN, percent-encoding, whitespace, backslashes, other schemes) is left
 * to `new URL`.
 */
const PLAIN_HTTP_URL = /^https?:\/\/(?:(?!xn--)[a-z0-9-]+\.)*(?!xn--)[a-z][a-z0-9-]*(?::[0-9]{1,4})?(?:[/?#]|$)/i;

export function isHttpUrl(value: unknown, max = MAX_URL_LENGTH): value is string {
  if (!text(value, max)) return false;
  if (PLAIN_HTTP_URL.test(value)) return true;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * A URL the WHATWG URL parser gives back unchanged, recognised without building one (the SDK's hot path, as
 * PLAIN_HTTP_URL): a lower-case scheme and plain host (as PLAIN_HTTP_URL, lower case, no port: the parser drops
 * a default one), then a path of at least `/` without `.` or `..` segments and an optional query, both only of
 * characters the parser leaves as they are (letters, digits and `!$&'()*+,-.:;=@[]_~`; the query also `/`, `?`
 * and `%` but not `'`), and no fragment. The ordinary script URL is in this form; any other goes to `new URL`.
 */
const NORMALIZED_HTTP_URL =
  /^https?:\/\/(?:(?!xn--)[a-z0-9-]+\.)*(?!xn--)[a-z][a-z0-9-]*(?:\/(?!\.\.?(?:[/?]|$))[!$&-.0-;=@-[\]_a-z~]*)+(?:\?[!$%&(-;=?-[\]_a-z~]*)?$/;

/**
 * A script's URL as the service keeps it: the WHATWG URL parser's serialization (lower-case scheme and host,
 * IDN as punycode, default port dropped, dot segments resolved, control characters, spaces and non-ASCII
 * percent-encoded), without fragment or userinfo; undefined when it is not an http(s) URL of at most `max`
 * characters. So the spellings of one URL are one script, and none can show as another (a `\u202E` that turns
 * the display around, a `https://cdn.trusted@evil.example/`). Userinfo is dropped rather than refused: the
 * script is still one some browsers load, the inventory must show it, and a credential is not kept. What the SDK
 * sends (a browser's `script.src`, its fragment cut) comes out byte for byte, so script ids, derived from the URL,
 * do not change.
 */
export function normalizedHttpUrl(value: unknown, max = MAX_URL_LENGTH): string | undefined {
  if (!text(value, max)) return undefined;
  if (NORMALIZED_HTTP_URL.test(value)) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  url.username = '';
  url.password = '';
  url.hash = '';
  return url.href.length <= max ? url.href : undefined;
}

/** An origin as browsers serialize it (`https://host[:port]`), or `null`, the opaque origin (a sandboxed or `data:` frame). */
export function isHttpOrigin(value: unknown): value is string {
  if (value === 'null') return true;
  if (!text(value, MAX_URL_LENGTH)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}

/**
 * A connection's origin exactly as a browser serializes it (lower case, punycode, no default port, no userinfo
 * or path): one destination has one spelling, so it is one connection, and nothing else rides along.
 */
export function isConnectionOrigin(value: unknown): value is string {
  if (!text(value, MAX_ORIGIN_LENGTH)) return false;
  try {
    const url = new URL(value);
    return CONNECTION_SCHEMES.includes(url.protocol) && `${url.protocol}//${url.host}` === value;
  } catch {
    return false;
  }
}

/**
 * Control characters (C0, DEL, C1), invisible format characters (bidi overrides such as U+202E, zero-width
 * characters) and lone surrogates: never in a URL a browser serializes or an id the SDK makes, and what would
 * make a value show as something else, split a log line, or fail to encode as UTF-8.
 */
const CONTROL_CHARACTERS = /[\p{Cc}\p{Cf}\p{Cs}]/u;

export const hasControlCharacters = (value: string): boolean => CONTROL_CHARACTERS.test(value);

/** Keys that name an object's prototype: never taken from a client, whatever merge the data meets later. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** How deep an item may nest (an observation's deepest field, `headers`, nests 1): deeper is not walked. */
export const MAX_NESTING_DEPTH = 8;

const PROTOTYPE_KEYS_REFUSED = 'prototype keys (__proto__, constructor, prototype) are not allowed';

/**
 * Why a JSON value (as JSON.parse made it: own properties only) is refused whole, or undefined: a prototype key
 * at any depth, or nesting deeper than MAX_NESTING_DEPTH. `what` names the value in the reason.
 */
export function structureProblem(value: unknown, what: string): string | undefined {
  const found = badStructure(value, 0);
  if (found === 'too deep') return `${what} is nested too deeply (more than ${MAX_NESTING_DEPTH} levels)`;
  return found === 'prototype key' ? PROTOTYPE_KEYS_REFUSED : undefined;
}

function badStructure(value: unknown, depth: number): 'prototype key' | 'too deep' | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  // Refused rather than walked: a hostile structure could be deep enough to overflow the stack.
  if (depth > MAX_NESTING_DEPTH) return 'too deep';
  for (const key of Object.keys(value)) {
    if (PROTOTYPE_KEYS.has(key)) return 'prototype key';
    const found = badStructure((value as Record<string, unknown>)[key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * Longest header value (UTF-8 bytes, white space folded) kept as it is; a longer one is kept as `sha256:` and the
 * hex SHA-256 of it. Any key may post headers, so what a page's headers can make the service keep is bounded; a
 * change of a long value still shows as a change of its hash (docs/decisions.md, issue 29).
 */
export const MAX_HEADER_VALUE_BYTES = 512;

/** A header value as the service keeps it: white space folded, then its hash when it is longer than MAX_HEADER_VALUE_BYTES. */
export function keptHeaderValue(value: string): string {
  const folded = value.replace(/\s+/g, ' ').trim();
  if (folded.length <= MAX_HEADER_VALUE_BYTES / 3 || Buffer.byteLength(folded) <= MAX_HEADER_VALUE_BYTES) return folded;
  return `sha256:${createHash('sha256').update(folded).digest('hex')}`;
}

/** Checks one observation and returns it with only the fields of its kind. */
export function checkObservation(raw: unknown): Checked<Observation> {
  if (!isRecord(raw)) return { ok: false, reason: 'not an object' };
  const problem = structureProblem(raw, 'observation');
  if (problem) return { ok: false, reason: problem };
  switch (raw.kind) {
    case 'script': {
      const inline = raw.inline === true;
      if (!optional(raw.inline, isBoolean)) return { ok: false, reason: 'inline must be a boolean' };
      if (inline && raw.src !== undefined && raw.src !== null) return { ok: false, reason: 'an inline script has no src' };
      const src = inline ? undefined : normalizedHttpUrl(raw.src);
      if (!inline && src === undefined) return { ok: false, reason: 'src must be an http(s) URL' };
      if (inline && raw.hash === undefined) return { ok: false, reason: 'an inline script needs its hash' };
      if (!optional(raw.hash, isSriHash)) return { ok: false, reason: 'hash must be an SRI hash such as sha384-…' };
      if (raw.hash_source !== undefined && raw.hash_source !== 'sdk' && raw.hash_source !== 'sri') {
        return { ok: false, reason: 'hash_source must be sdk or sri' };
      }
      if (raw.size_bytes !== undefined && !(Number.isSafeInteger(raw.size_bytes) && (raw.size_bytes as number) >= 0)) {
        return { ok: false, reason: 'size_bytes must be a non-negative integer' };
      }
      if (!optional(raw.integrity_attr, isBoolean)) return { ok: false, reason: 'integrity_attr must be a boolean' };
      if (!optional(raw.gtm_container, (v): v is string => text(v, 64))) return { ok: false, reason: 'gtm_container must be a string' };
      if (!optional(raw.blocked, isBoolean)) return { ok: false, reason: 'blocked must be a boolean' };
      const refusal = refusalProblem(raw);
      if (refusal) return { ok: false, reason: refusal };
      const { hash, hash_source, size_bytes, integrity_attr, gtm_container, refused_integrity } = raw as Partial<ScriptObservation>;
      const blocked = raw.blocked === true ? true : undefined;
      return { ok: true, value: prune({ kind: 'script', inline, src, hash, hash_source, size_bytes, integrity_attr, gtm_container, blocked, refused_integrity }) };
    }
    case 'headers': {
      if (!isRecord(raw.headers)) return { ok: false, reason: 'headers must be an object' };
      const entries = Object.entries(raw.headers);
      if (entries.length > 100 || !entries.every(([name, value]) => text(name, 128) && typeof value === 'string' && value.length <= 8192)) {
        return { ok: false, reason: 'headers must map names to string values' };
      }
      return { ok: true, value: { kind: 'headers', headers: Object.fromEntries(entries.map(([n, v]) => [n.toLowerCase(), keptHeaderValue(v as string)])) } };
    }
    case 'csp_violation':
      if (!text(raw.directive, 256)) return { ok: false, reason: 'directive must be a string of 1 to 256 characters' };
      if (!text(raw.blocked_uri, MAX_URL_LENGTH)) return { ok: false, reason: `blocked_uri must be a string of 1 to ${MAX_URL_LENGTH} characters` };
      if (!optional(raw.source_file, (v): v is string => text(v, MAX_URL_LENGTH))) {
        return { ok: false, reason: `source_file must be a string of 1 to ${MAX_URL_LENGTH} characters` };
      }
      return { ok: true, value: prune({ kind: 'csp_violation', directive: raw.directive, blocked_uri: raw.blocked_uri, source_file: raw.source_file as string | undefined }) };
    case 'sensitive_field_access': {
      // The reading script's URL, kept as a script's is, so that it names the same script.
      const src = normalizedHttpUrl(raw.src);
      if (src === undefined || !text(raw.field, 256)) return { ok: false, reason: 'src (URL) and field are required' };
      const callers = callersOf(raw.callers, src);
      if (callers === null) return { ok: false, reason: `callers must be a list of at most ${MAX_CALLERS} http(s) URLs` };
      return { ok: true, value: prune({ kind: 'sensitive_field_access', src, field: raw.field, callers }) };
    }
    case 'iframe':
      if (!isHttpOrigin(raw.origin)) return { ok: false, reason: 'origin must be an http(s) origin (scheme://host[:port], as browsers write it) or null' };
      return { ok: true, value: { kind: 'iframe', origin: raw.origin } };
    case 'payment_recipient':
      if (!text(raw.method, 32) || typeof raw.key_hash !== 'string' || !/^[0-9a-f]{64}$/i.test(raw.key_hash)) {
        return { ok: false, reason: 'method and key_hash (64 hex characters) are required' };
      }
      return { ok: true, value: { kind: 'payment_recipient', method: raw.method.toLowerCase(), key_hash: raw.key_hash.toLowerCase() } };
    case 'connection': {
      if (!isConnectionOrigin(raw.origin)) {
        return { ok: false, reason: `origin must be an http(s) or ws(s) origin (scheme://host[:port], as browsers write it) of at most ${MAX_ORIGIN_LENGTH} characters` };
      }
      if (!CONNECTION_VIAS.includes(raw.via as ConnectionVia)) return { ok: false, reason: `via must be one of ${CONNECTION_VIAS.join(', ')}` };
      const initiator = raw.initiator === undefined ? undefined : normalizedHttpUrl(raw.initiator);
      if (raw.initiator !== undefined && initiator === undefined) return { ok: false, reason: 'initiator must be an http(s) URL' };
      return { ok: true, value: prune({ kind: 'connection', origin: raw.origin, via: raw.via as ConnectionVia, initiator }) };
    }
    default:
      return { ok: false, reason: 'unknown kind' };
  }
}

/**
 * A refusal is only believable as the SDK can know it: it read the bytes of an external script (its own hash),
 * the page's element has an `integrity` attribute, and the tokens (one algorithm, as the browser checks them)
 * do not name that hash.
 */
function refusalProblem(raw: Record<string, unknown>): string | undefined {
  const refused = raw.refused_integrity;
  if (refused === undefined) return undefined;
  const tokens = typeof refused === 'string' ? refused.split(' ') : [];
  const algorithm = tokens.length ? tokens[0].slice(0, 6) : '';
  if (tokens.length === 0 || tokens.length > MAX_REFUSED_INTEGRITY_TOKENS || !tokens.every((token) => isSriHash(token) && token.slice(0, 6) === algorithm)) {
    return `refused_integrity must be 1 to ${MAX_REFUSED_INTEGRITY_TOKENS} SRI hashes of one algorithm, separated by spaces`;
  }
  if (raw.inline === true || raw.hash === undefined || (raw.hash_source !== undefined && raw.hash_source !== 'sdk') || raw.integrity_attr !== true) {
    return 'refused_integrity needs the SDK\'s own hash of an external script whose element has an integrity attribute';
  }
  if (tokens.includes(raw.hash as string)) return 'refused_integrity names the hash: the browser ran that content';
  return undefined;
}

/**
 * A read's callers kept as scripts' URLs are, each once and never the reader itself; undefined when none is left,
 * null when they are not a list of at most MAX_CALLERS http(s) URLs (the whole observation is refused then: a
 * chain cut short could leave out the one script it is about).
 */
function callersOf(raw: unknown, src: string): string[] | undefined | null {
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw) || raw.length > MAX_CALLERS) return null;
  const callers: string[] = [];
  for (const item of raw) {
    const url = normalizedHttpUrl(item);
    if (url === undefined) return null;
    if (url !== src && !callers.includes(url)) callers.push(url);
  }
  return callers.length ? callers : undefined;
}

/** Leaves out the fields a client did not send (on the SDK's hot path: a plain loop, no intermediate arrays). */
function prune<T extends object>(value: T): T {
  const pruned: Partial<T> = {};
  for (const key in value) if (value[key] !== undefined) pruned[key] = value[key];
  return pruned as T;
}
