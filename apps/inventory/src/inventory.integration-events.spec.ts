import type { RecordedEvent } from '@pss/event-store';
import { InventoryIntegrationEvents } from './inventory.integration-events';

const recorded = (type: string, data: Record<string, unknown>, stream = 'observations-s1'): RecordedEvent => ({
  id: '01900000-0000-7000-8000-0000000000aa',
  stream,
  revision: 0,
  position: 42,
  type,
  data,
  metadata: { orgId: 'org-1', actor: 'sdk', correlationId: 'req-1' },
  createdAt: '2026-05-04T15:00:00.000Z',
});

describe('inventory integration events', () => {
  const source = new InventoryIntegrationEvents();

  it('wraps a fact in the versioned envelope, with an id stable across redeliveries', () => {
    const [event] = source.toIntegrationEvents(
      recorded('CspViolationObserved', {
        storeId: 's1',
        orgId: 'org-1',
        pageUrl: 'https://loja.example/checkout',
        sessionId: 'sess',
        at: '2026-05-04T15:00:00.000Z',
        directive: 'script-src',
        blockedUri: 'https://evil.example/x.js',
        sourceFile: null,
      }),
    );
    expect(event).toEqual({
      id: 'evt_019000000000700080000000000000aa',
      type: 'inventory.csp.violation',
      version: 1,
      source: 'inventory',
      org_id: 'org-1',
      store_id: 's1',
      occurred_at: '2026-05-04T15:00:00.000Z',
      correlation_id: 'req-1',
      position: 42,
      data: {
        store_id: 's1',
        page_url: 'https://loja.example/checkout',
        session_id: 'sess',
        at: '2026-05-04T15:00:00.000Z',
        directive: 'script-src',
        blocked_uri: 'https://evil.example/x.js',
        source_file: null,
      },
    });
  });

  it('publishes an unauthorized change of an authorized script with both hashes', () => {
    const [event] = source.toIntegrationEvents(
      recorded(
        'ScriptHashChanged',
        {
          scriptId: 'sc1',
          storeId: 's1',
          src: 'https://cdn.example/a.js',
          previousHash: 'sha384-old',
          hash: 'sha384-new',
          authorizedHash: 'sha384-old',
          integrityStatus: 'mismatch',
          unauthorizedChange: true,
          pageUrl: 'https://loja.example/checkout',
          changedAt: '2026-05-04T15:00:00.000Z',
        },
        'script-sc1',
      ),
    );
    expect(event.type).toBe('inventory.script.hash-changed');
    expect(event.data).toMatchObject({ previous_hash: 'sha384-old', new_hash: 'sha384-new', unauthorized_change: true, integrity_status: 'mismatch' });
  });

  it('publishes what reports keeps for the as-of rule: header baselines, reviews, policies, pages', () => {
    const topics = [
      recorded('SecurityHeadersBaselined', { storeId: 's1', orgId: 'org-1', page: '/checkout', headers: { 'content-security-policy': "default-src 'self'" }, at: '2026-05-04T15:00:00.000Z' }, 'headers-s1'),
      recorded('ScriptReviewRequested', { scriptId: 'sc1', storeId: 's1', method: 'expiry', by: 'system', justification: null, policyId: null, policyVersion: null, requestedAt: '2026-05-04T15:00:00.000Z' }, 'script-sc1'),
      recorded('PaymentPagesAdded', { storeId: 's1', pages: [{ id: 'p1', url_pattern: '/pay/*', url: 'https://loja.example/pay/*', payment_methods: [], created_at: '2026-05-04T15:00:00.000Z' }], addedAt: '2026-05-04T15:00:00.000Z' }, 'store-s1'),
      recorded('PolicyUpdated', { policyId: 'p1', changes: { active: false, match: { host: 'x' } }, version: 2, updatedAt: '2026-05-04T15:00:00.000Z' }, 'policy-p1'),
      recorded('PolicyDeleted', { policyId: 'p1', deletedAt: '2026-05-04T15:00:00.000Z' }, 'policy-p1'),
      recorded('ScriptMarkedSuspicious', { scriptId: 'sc1', storeId: 's1', field: 'cvv', markedAt: '2026-05-04T15:00:00.000Z' }, 'script-sc1'),
    ].map((event) => source.toIntegrationEvents(event)[0]);
    expect(topics.map((event) => event.type)).toEqual([
      'inventory.headers.baselined',
      'inventory.script.review-requested',
      'inventory.store.pages-added',
      'inventory.policy.updated',
      'inventory.policy.deleted',
      'inventory.script.suspicious',
    ]);
    expect(topics[1].data).toMatchObject({ script_id: 'sc1', method: 'expiry', at: '2026-05-04T15:00:00.000Z' });
    expect(topics[2].data).toEqual({ store_id: 's1', payment_pages: ['/pay/*'], added_at: '2026-05-04T15:00:00.000Z' });
    // Only what an assessor reads of a policy; its match and conditions stay inside inventory.
    expect(topics[3].data).toEqual({ policy_id: 'p1', changes: { active: false }, version: 2, updated_at: '2026-05-04T15:00:00.000Z' });
  });

  it('publishes nothing for token events (they carry hashes)', () => {
    expect(source.toIntegrationEvents(recorded('TokenIssued', { hash: 'x' }, 'token-1'))).toEqual([]);
  });
});

describe('policy.applied', () => {
  const source = new InventoryIntegrationEvents();

  it('is published beside the script fact when a policy decided, with its own stable id', () => {
    const events = source.toIntegrationEvents(
      recorded(
        'ScriptAuthorized',
        {
          scriptId: 'sc1',
          storeId: 's1',
          method: 'policy',
          by: 'policy:p1',
          justification: 'CDN',
          policyId: 'p1',
          policyVersion: 2,
          authorizedHash: 'sha384-x',
          expiresAt: null,
          reviewDueAt: null,
          authorizedAt: '2026-05-04T15:00:00.000Z',
        },
        'script-sc1',
      ),
    );
    expect(events.map((event) => event.type)).toEqual(['inventory.script.authorized', 'inventory.policy.applied']);
    expect(events[1].data).toEqual({ policy_id: 'p1', policy_version: 2, script_id: 'sc1', store_id: 's1', action: 'authorize', justification: 'CDN' });
    expect(events[1].id).not.toBe(events[0].id);
    expect(source.toIntegrationEvents(recorded('ScriptAuthorized', { scriptId: 'sc1', storeId: 's1', method: 'api', policyId: null }, 'script-sc1'))).toHaveLength(1);
  });
});
