import { signedWith } from '../testing/signature-check';
import { deliveryHeaders, signatureOf } from './signature';

const verify = (header: string, raw: Buffer, secret: string): boolean =>
  signedWith({ path: '/', headers: { 'x-service-signature': header }, raw, json: undefined }, secret);

describe('webhook signature', () => {
  const secret = 'whsec_0123456789abcdef0123456789abcdef';
  const body = JSON.stringify({ id: 'evt_1', type: 'test', created_at: '2026-05-04T15:00:00.000Z', data: { note: 'São Paulo ✓' } });
  const at = new Date('2026-05-04T15:00:00.900Z');

  it('signs `<t>.<raw body>` with the whole secret, t in whole seconds', () => {
    const header = signatureOf(secret, body, at);
    expect(header).toMatch(/^t=1777906800,v1=[0-9a-f]{64}$/);
    expect(verify(header, Buffer.from(body, 'utf8'), secret)).toBe(true);
    expect(verify(header, Buffer.from(body.replace('✓', '✗'), 'utf8'), secret)).toBe(false);
    expect(verify(header, Buffer.from(body, 'utf8'), secret.replace('whsec_', ''))).toBe(false);
  });

  it('signs afresh at every attempt', () => {
    expect(signatureOf(secret, body, new Date(at.getTime() + 60_000))).not.toBe(signatureOf(secret, body, at));
  });

  it("sends the spec's headers, and a signature only when there is a secret", () => {
    expect(deliveryHeaders('alert.created', 'd1', body, secret, at)).toEqual({
      'Content-Type': 'application/json',
      'User-Agent': 'Service-Webhooks/1.0',
      'X-Service-Event': 'alert.created',
      'X-Service-Delivery': 'd1',
      'X-Service-Signature': signatureOf(secret, body, at),
    });
    expect(deliveryHeaders('alert.created', 'd1', body, null, at)).not.toHaveProperty('X-Service-Signature');
  });
});
