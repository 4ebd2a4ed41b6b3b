import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceivedRequest } from './https-receiver';

/**
 * What a receiver does with `X-Service-Signature` (spec, Webhook signature), written apart from the code that
 * signs: recomputed from the raw body as received, compared in constant time.
 */
export function signedWith(request: ReceivedRequest, secret: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(request.headers['x-service-signature']));
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(Buffer.concat([Buffer.from(`${match[1]}.`), request.raw])).digest();
  return timingSafeEqual(expected, Buffer.from(match[2], 'hex'));
}
