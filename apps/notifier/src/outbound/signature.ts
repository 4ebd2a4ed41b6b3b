import { createHmac } from 'node:crypto';

/**
 * Spec, Webhook signature: `t=<unix seconds>,v1=<64 hex>`, where v1 is the HMAC-SHA256 of `<t>.<raw body>` keyed
 * with the whole secret (its `whsec_` prefix included). `at` is the attempt's time: every attempt signs afresh.
 */
export function signatureOf(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

const USER_AGENT = 'Service-Webhooks/1.0';

/** Spec, Delivery: the headers of every attempt; the signature only when the channel has a secret. */
export function deliveryHeaders(eventType: string, deliveryId: string, body: string, secret: string | null, at: Date): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-Service-Event': eventType,
    'X-Service-Delivery': deliveryId,
    ...(secret ? { 'X-Service-Signature': signatureOf(secret, body, at) } : {}),
  };
}
