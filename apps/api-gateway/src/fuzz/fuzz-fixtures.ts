import fc from 'fast-check';
import { SCOPES } from '@pss/contracts';
import { sri } from '@pss/testkit';
import type { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';
import type { FuzzContext } from './fuzz-request';
import type { OpenApiDocument } from './operations';

/** Webhook tests and deliveries to it are refused at once (WEBHOOK_ALLOW_HOSTS of the webhook harness lets it be created). */
const WEBHOOK_URL = 'https://127.0.0.1:9/hook';

/**
 * A partner organization with a token holding every scope, a child organization, and one resource of each kind,
 * so that fuzzed requests reach real handlers on real data, not only the 404 path.
 */
export async function fuzzFixtures(service: EmbeddedHarness, document: OpenApiDocument): Promise<FuzzContext> {
  const { token, orgId } = await service.tenant([...SCOPES], { plan: 'enterprise', 'billing-mode': 'partner' });
  const child = await service.ops('org.create', { name: 'Fuzz Child', parent: orgId });
  const store = await service.createStore(token, {
    recipients: [{ method: 'pix', key: 'pagamentos@loja.example.test' }],
    payment_pages: [{ url_pattern: '/checkout/*', payment_methods: ['pix'] }],
  });
  await service.reportSdk(store.sdk_key, [
    { kind: 'script', src: 'https://cdn.example.test/widget.js', hash: sri('widget v1') },
    { kind: 'headers', headers: { 'content-security-policy': "script-src 'self'" } },
  ]);
  const created = async (path: string, body: Record<string, unknown>) => (await service.request('POST', `/api/v1${path}`, { token, body })).body?.id;
  const listed = async (path: string): Promise<string[]> =>
    ((await service.request('GET', `/api/v1${path}`, { token })).body?.data ?? []).map((item: { id: string }) => item.id);
  const ids: Record<string, string[]> = {
    organizations: [child.id],
    stores: [store.id],
    rules: [await created('/rules', { store_id: store.id, type: 'block', target: 'domain', value: 'skimmer.example.test' })],
    webhooks: [await created('/webhooks', { url: WEBHOOK_URL, secret: 'fuzz-secret-0123456789' })],
    scripts: await listed('/scripts'),
    policies: await listed('/policies'),
    alerts: await listed('/alerts'),
  };
  const hints = {
    store_id: fc.constant(store.id),
    org_id: fc.constantFrom(child.id, orgId),
    key: fc.constant(store.sdk_key),
    domain: fc.integer({ min: 1, max: 1_000_000 }).map((n) => `fuzz-${n}.example.com.br`),
    timezone: fc.constantFrom('America/Sao_Paulo', 'UTC', 'Europe/Lisbon'),
    url: fc.constant(WEBHOOK_URL),
  };
  return { source: { components: document.components.schemas, hints }, token, ids };
}
