import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * Signed links to report files (spec: a PDF answers with a 302 to a signed URL valid 1 hour). Pure functions:
 * the reports service signs, the gateway verifies, both with a key derived from the service's secret key
 * (SECRET_KEY, the same on every replica) so any replica accepts a link any other made.
 *
 * The signature is HMAC-SHA256 over the file key, the SHA-256 of the file's bytes (so a link opens exactly the
 * file it was made for, never a later one stored under the same key), the file name offered to the browser and
 * the expiry; base64url, compared in constant time.
 */
export const SIGNED_URL_TTL_SECONDS = 60 * 60;
/**
 * The gateway route that serves a signed file; the key travels in the query string with the signature. Outside
 * /api/v1 like /sdk/v1: a link that carries its own permission, not an operation called with an API token.
 */
export const REPORT_FILES_PATH = '/files/v1/reports';

const VERSION = 'v1';
const SHA256_HEX = /^[0-9a-f]{64}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;
const DIGITS = /^\d{1,12}$/;

export interface SignedFile {
  key: string;
  /** Hex SHA-256 of the file's bytes. */
  sha256: string;
  /** Offered as the download's name (Content-Disposition); plain ASCII. */
  fileName: string;
}

/** The query string of a signed link, as strings. */
export interface FileUrlQuery {
  expires: string;
  sha256: string;
  name: string;
  signature: string;
}

export type FileUrlCheck = { valid: true; sha256: string; fileName: string; expiresAt: Date } | { valid: false; reason: 'expired' | 'invalid' };

/** The signing key, derived (HKDF-SHA256, label "report-files") so the secret key itself never signs anything. */
export function fileSigningKey(secretKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), 'pss report-files', 32));
}

export function signFileUrl(signingKey: Buffer, file: SignedFile, now: Date, ttlSeconds = SIGNED_URL_TTL_SECONDS): FileUrlQuery {
  if (!SHA256_HEX.test(file.sha256)) throw new Error('a signed file needs the hex SHA-256 of its bytes');
  const expires = String(Math.floor(now.getTime() / 1000) + ttlSeconds);
  return { expires, sha256: file.sha256, name: file.fileName, signature: signature(signingKey, file.key, file.sha256, file.fileName, expires) };
}

/** Whether a link is still good for the file under `key`: signed with this key, unaltered, not expired. */
export function verifyFileUrl(signingKey: Buffer, key: string, query: Partial<Record<keyof FileUrlQuery, unknown>>, now: Date): FileUrlCheck {
  const { expires, sha256, name, signature: given } = query;
  if (typeof expires !== 'string' || typeof sha256 !== 'string' || typeof name !== 'string' || typeof given !== 'string') return { valid: false, reason: 'invalid' };
  if (!DIGITS.test(expires) || !SHA256_HEX.test(sha256) || !SIGNATURE.test(given)) return { valid: false, reason: 'invalid' };
  // The texts are compared, not the decoded bytes: a last base64 character differing only in its unused bits
  // would decode the same, and a link must have exactly one valid form.
  const expected = Buffer.from(signature(signingKey, key, sha256, name, expires), 'latin1');
  if (!timingSafeEqual(expected, Buffer.from(given, 'latin1'))) return { valid: false, reason: 'invalid' };
  // Checked after the signature: an altered expiry is "invalid", only a genuine link can be "expired".
  const expiresAt = new Date(Number(expires) * 1000);
  if (now.getTime() >= expiresAt.getTime()) return { valid: false, reason: 'expired' };
  return { valid: true, sha256, fileName: name, expiresAt };
}

/** The absolute URL of a signed link, under the service's public URL. */
export function signedFileUrl(publicUrl: string, key: string, query: FileUrlQuery): string {
  return `${publicUrl.replace(/\/+$/, '')}${REPORT_FILES_PATH}?${new URLSearchParams({ key, ...query }).toString()}`;
}

function signature(signingKey: Buffer, key: string, sha256: string, fileName: string, expires: string): string {
  // Length-prefixed fields: no two different (key, name) pairs can produce the same signed text.
  const fields = [VERSION, key, sha256, fileName, expires].map((field) => `${Buffer.byteLength(field)}:${field}`).join('\n');
  return createHmac('sha256', signingKey).update(fields).digest('base64url');
}
