import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * API token format (spec, Authentication 3): an 8-character literal, 24 characters, `_`, 32 characters:
 * 65 in all. The first 32 characters are the token's prefix, shown in lists and audit labels.
 * Lowercase hex keeps the token URL- and header-safe and easy to spot for secret scanners.
 * Shared by inventory (which issues tokens) and the gateway (which checks them).
 *
 * The literal is this product's own: Stripe's `sk_live_`, which tokens issued before it carry, made secret
 * scanners report a leaked token as a Stripe key. Those tokens keep working until revoked.
 */
export const TOKEN_LITERAL = 'pss_tok_';
export const LEGACY_TOKEN_LITERAL = 'sk_live_';
export const TOKEN_LENGTH = 65;
export const TOKEN_PREFIX_LENGTH = 32;
/** What the gateway accepts: new tokens and the ones issued with the legacy literal. */
export const TOKEN_PATTERN = new RegExp(`^(?:${TOKEN_LITERAL}|${LEGACY_TOKEN_LITERAL})[0-9a-f]{24}_[0-9a-f]{32}$`);
/** Published for secret scanners (docs/api.md, kept equal by a spec): finds a new token inside any text. */
export const TOKEN_SCANNER_PATTERN = new RegExp(`\\b${TOKEN_LITERAL}[0-9a-f]{24}_[0-9a-f]{32}\\b`);
/** The spec: a token's last use is recorded at most once a minute. */
export const LAST_USE_RESOLUTION_MS = 60_000;

export const tokenPrefix = (token: string): string => token.slice(0, TOKEN_PREFIX_LENGTH);

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Compares in constant time, so response timing never tells how much of a hash matched. */
export function tokenMatchesHash(token: string, hash: string): boolean {
  const actual = Buffer.from(hashToken(token), 'hex');
  const expected = Buffer.from(hash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
