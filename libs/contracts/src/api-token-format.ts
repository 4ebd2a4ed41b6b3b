import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * API token format (spec, Authentication 3): an 8-character literal, 24 characters, `_`, 32 characters:
 * 65 in all. The first 32 characters are the token's prefix, shown in lists and audit labels.
 * Lowercase hex keeps the token URL- and header-safe and easy to spot for secret scanners.
 * Shared by inventory (which issues tokens) and the gateway (which checks them).
 */
export const TOKEN_LITERAL = 'sk_live_';
export const TOKEN_LENGTH = 65;
export const TOKEN_PREFIX_LENGTH = 32;
export const TOKEN_PATTERN = /^sk_live_[0-9a-f]{24}_[0-9a-f]{32}$/;
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
