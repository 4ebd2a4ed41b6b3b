import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh secret of 32 random bytes, URL-safe: session ids, CSRF tokens, WebAuthn challenges. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

/** What is stored of a bearer secret (a session id, a recovery code): a leaked store holds nothing usable. */
export const secretHash = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** Compares two secrets in time independent of where they differ. */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
