import { createHash } from 'node:crypto';
import { canonicalJson } from '@pss/kernel';

/** What identifies a request for its idempotency key: the same operation on the same target with the same body. */
export interface RequestFingerprint {
  method: string;
  /** The concrete URL: a key sent to /stores/A/rotate-key and then to /stores/B/rotate-key is reused. */
  url: string;
  scope: string;
  body: unknown;
}

/** SHA-256 (hex) over the method, URL, scope and the canonical JSON of the body. */
export function requestFingerprint(request: RequestFingerprint): string {
  const canonical = canonicalJson([request.method.toUpperCase(), request.url, request.scope, request.body ?? null]);
  return createHash('sha256').update(canonical).digest('hex');
}
