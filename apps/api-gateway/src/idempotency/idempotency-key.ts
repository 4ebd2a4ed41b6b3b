import type { IncomingHttpHeaders } from 'node:http';
import { validationError } from '@pss/kernel';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** Spec, Limits: length 1 to 255. Printable ASCII keeps keys safe to store, log and compare byte for byte. */
const VALID_KEY = /^[\x20-\x7e]{1,255}$/;

/** The request's Idempotency-Key, undefined when it sends none; 400 validation_error when it is malformed. */
export function idempotencyKeyOf(headers: IncomingHttpHeaders): string | undefined {
  const value = headers[IDEMPOTENCY_KEY_HEADER];
  if (value === undefined) return undefined;
  if (typeof value === 'string' && VALID_KEY.test(value)) return value;
  throw validationError([{ field: 'Idempotency-Key', message: 'Idempotency-Key must be 1 to 255 printable ASCII characters' }]);
}
