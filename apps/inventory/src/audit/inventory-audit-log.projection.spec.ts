import { auditLogCollection, auditTargetsCollection } from '@pss/contracts';
import type { RecordedEvent } from '@pss/event-store';
import { recorded, replayedTwice } from '@pss/testkit';
import { InventoryAuditLogProjection } from './inventory-audit-log.projection';

const ENTRIES = auditLogCollection('inventory');
const OWNER = 'user:owner@shop.example';
const TOKEN = 'api:pss_tok_0123456789abcdef01234567';

const by = (actor: string, event: RecordedEvent, orgId: string | undefined = 'o1'): RecordedEvent => ({ ...event, metadata: { actor, ...(orgId ? { orgId } : {}) } });

const decision = { method: 'api', by: TOKEN, justification: 'Payment widget of our PSP', policyId: null, policyVersion: null, prevalenceSeen: null };

describe('InventoryAuditLogProjection replayed twice', () => {
  it('records each change with its actor, action, target (labelled from earlier events) and details', async () => {
    const events = [
      by(OWNER, recorded('token-t1', 'TokenIssued', { tokenId: 't1', orgId: 'o1', name: 'CI', prefix: 'pss_tok_ab', hash: 'h', scopes: ['stores:read'], issuedAt: 'T1', expiresAt: null }, '2026-11-23T09:00:00.000Z')),
      by(OWNER, recorded('token-t1', 'TokenUsed', { tokenId: 't1', usedAt: 'T2' }, '2026-11-23T09:01:00.000Z')),
      by(OWNER, recorded('token-t1', 'TokenRevoked', { tokenId: 't1', revokedAt: 'T3' }, '2026-11-23T09:02:00.000Z')),
      by('system', recorded('script-s1', 'ScriptDetected', { scriptId: 's1', storeId: 'st1', orgId: 'o1', src: 'https://psp.example/widget.js' }, '2026-11-23T09:03:00.000Z')),
      by(TOKEN, recorded('script-s1', 'ScriptAuthorized', { ...decision, scriptId: 's1', storeId: 'st1', authorizedHash: 'x', expiresAt: null, reviewDueAt: null, authorizedAt: 'T4' }, '2026-11-23T09:04:00.000Z')),
      by(TOKEN, recorded('policy-p1', 'PolicyCreated', { policyId: 'p1', orgId: 'o1', storeId: null, name: 'PSP scripts', action: 'authorize', mode: 'auto', isDefault: false }, '2026-11-23T09:05:00.000Z')),
      by(OWNER, recorded('policy-p1', 'PolicyUpdated', { policyId: 'p1', changes: { active: false, description: undefined }, version: 2, updatedAt: 'T6' }, '2026-11-23T09:06:00.000Z')),
      by(TOKEN, recorded('rule-r1', 'RuleUpdated', { ruleId: 'r1', active: false, updatedAt: 'T7' }, '2026-11-23T09:07:00.000Z'), 'o2'),
    ];
    const twice = await replayedTwice(InventoryAuditLogProjection, events);

    const entry = (index: number) => ({ _id: events[index].id, org_id: 'o1', time: events[index].createdAt });
    expect(twice[ENTRIES]).toEqual([
      expect.objectContaining({ ...entry(0), actor: OWNER, action: 'token.created', target: { type: 'token', id: 't1', label: 'CI' }, details: { prefix: 'pss_tok_ab', scopes: ['stores:read'], expires_at: null } }),
      expect.objectContaining({ ...entry(2), actor: OWNER, action: 'token.revoked', target: { type: 'token', id: 't1', label: 'CI' }, details: {} }),
      expect.objectContaining({
        ...entry(4),
        actor: TOKEN,
        action: 'script.authorized',
        target: { type: 'script', id: 's1', label: 'https://psp.example/widget.js' },
        details: { method: 'api', justification: 'Payment widget of our PSP', policy_id: null, policy_version: null, store_id: 'st1', expires_at: null },
      }),
      expect.objectContaining({ ...entry(5), actor: TOKEN, action: 'policy.created', target: { type: 'policy', id: 'p1', label: 'PSP scripts' } }),
      expect.objectContaining({ ...entry(6), actor: OWNER, action: 'policy.updated', target: { type: 'policy', id: 'p1', label: 'PSP scripts' }, details: { changed: ['active'], version: 2 } }),
      expect.objectContaining({ _id: events[7].id, org_id: 'o2', action: 'rule.updated', target: { type: 'rule', id: 'r1', label: null }, details: { changed: ['active'], active: false } }),
    ]);
  });

  it('takes the organization of an event without one in its metadata from its target’s earlier events', async () => {
    const events = [
      by(OWNER, recorded('store-st1', 'StoreCreated', { storeId: 'st1', orgId: 'o1', domain: 'shop.example', profile: { name: 'Shop' } })),
      by(OWNER, recorded('store-st1', 'StoreSuspended', { storeId: 'st1', suspendedAt: 'T2' }), undefined),
    ];
    const twice = await replayedTwice(InventoryAuditLogProjection, events);

    expect(twice[ENTRIES]).toEqual([
      expect.objectContaining({ action: 'store.created', org_id: 'o1', target: { type: 'store', id: 'st1', label: 'shop.example' }, details: { name: 'Shop', environment: 'production' } }),
      expect.objectContaining({ action: 'store.suspended', org_id: 'o1', target: { type: 'store', id: 'st1', label: 'shop.example' } }),
    ]);
    expect(twice[auditTargetsCollection('inventory')]).toEqual([expect.objectContaining({ _id: 'store:st1', org_id: 'o1', label: 'shop.example' })]);
  });
});
