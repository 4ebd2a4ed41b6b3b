import { join } from 'node:path';
import type { RecordedEvent } from '@pss/event-store';
import { describeWireFormat } from '@pss/testkit';
import { InventoryIntegrationEvents } from './inventory.integration-events';

const AT = '2026-05-04T15:00:00.000Z';
const LATER = '2026-05-04T15:00:05.000Z';
let n = 0;
const recorded = (type: string, data: Record<string, unknown>, stream: string, metadata: Record<string, unknown> = { orgId: 'org-1', actor: 'sdk', correlationId: 'req-1' }): RecordedEvent => {
  n += 1;
  return { id: `01900000-0000-7000-8000-0000000000${String(n).padStart(2, '0')}`, stream, revision: n, position: 100 + n, type, data, metadata, createdAt: AT };
};
const seen = { storeId: 's1', orgId: 'org-1', pageUrl: 'https://loja.example/checkout', sessionId: 'sess', at: AT };
const decision = { scriptId: 'sc1', storeId: 's1', method: 'api', by: 'api:tok', justification: 'Payment widget', policyId: null, policyVersion: null };
const byPolicy = { ...decision, method: 'policy', by: 'policy:p1', policyId: 'p1', policyVersion: 3 };
const page = { id: 'p1', url_pattern: '/pay/*', url: 'https://loja.example/pay/*', payment_methods: [], created_at: AT };
const window = { storeId: 's1', orgId: 'org-1', firstEventAt: AT, lastEventAt: LATER, batches: 4, observations: 9, scripts: [{ scriptId: 'sc1', sightings: 3, sessions: 2, lastSeenAt: LATER }] };

/** One recorded event of every kind inventory publishes, and the edge cases of each mapping. */
const SAMPLES: RecordedEvent[] = [
  recorded('OrganizationCreated', { orgId: 'org-1', name: 'Loja', plan: 'pro', billingMode: 'direct', parentOrgId: null, ownerEmail: 'dona@loja.example', createdAt: AT }, 'org-org-1', { actor: 'api:tok' }),
  recorded('StoreCreated', { storeId: 's1', orgId: 'org-1', domain: 'loja.example', profile: { name: 'Loja', country: 'BR', timezone: 'America/Sao_Paulo', emergency_contact: null }, pages: [page], sdkConfig: { mode: 'monitor' }, createdAt: AT }, 'store-s1'),
  recorded('StoreUpdated', { storeId: 's1', profile: { name: 'Loja 2' }, sdkConfig: { mode: 'block' }, recipients: [{ method: 'pix', key_hash: 'h1', label: 'x' }], updatedAt: AT }, 'store-s1'),
  recorded('StoreUpdated', { storeId: 's1', updatedAt: AT }, 'store-s1'),
  recorded('StoreSuspended', { storeId: 's1', suspendedAt: AT }, 'store-s1'),
  recorded('PaymentPagesAdded', { storeId: 's1', pages: [page], addedAt: AT }, 'store-s1'),
  recorded('ScriptDetected', { scriptId: 'sc1', storeId: 's1', orgId: 'org-1', src: 'https://cdn.example/a.js', inline: false, host: 'cdn.example', type: 'external', category: 'payment', vendorId: 'v1', status: 'needs_review', hash: 'sha384-a', sriHash: null, integrityAttr: false, pageUrl: 'https://loja.example/checkout', sessionId: 'sess', detectedAt: AT }, 'script-sc1'),
  recorded('ScriptDetected', { scriptId: 'sc2', storeId: 's1', orgId: 'org-1', src: 'inline:abc', inline: true, host: null, type: 'inline', category: null, vendorId: null, status: 'malicious', hash: 'sha384-b', pageUrl: 'https://loja.example/checkout', sessionId: 'sess', detectedAt: AT }, 'script-sc2'),
  recorded('ScriptHashChanged', { scriptId: 'sc1', storeId: 's1', src: 'https://cdn.example/a.js', previousHash: 'sha384-a', hash: 'sha384-c', authorizedHash: 'sha384-a', integrityStatus: 'mismatch', unauthorizedChange: true, pageUrl: 'https://loja.example/checkout', sessionId: 'sess', changedAt: AT }, 'script-sc1'),
  recorded('ScriptHashChanged', { scriptId: 'sc1', storeId: 's1', src: 'https://cdn.example/a.js', previousHash: null, hash: 'sha384-c', authorizedHash: null, integrityStatus: 'unknown', unauthorizedChange: false, pageUrl: 'https://loja.example/checkout', changedAt: AT }, 'script-sc1'),
  recorded('ScriptIntegrityRefused', { scriptId: 'sc1', storeId: 's1', src: 'https://cdn.example/a.js', hash: 'sha384-c', refusedIntegrity: 'sha384-a', pageUrl: 'https://loja.example/checkout', sessionId: 'sess', refusedAt: AT }, 'script-sc1'),
  recorded('ScriptAuthorized', { ...decision, authorizedHash: 'sha384-a', expiresAt: LATER, reviewDueAt: null, authorizedAt: AT }, 'script-sc1'),
  recorded('ScriptAuthorized', { ...byPolicy, authorizedHash: 'sha384-a', expiresAt: null, reviewDueAt: null, authorizedAt: AT }, 'script-sc1'),
  recorded('ScriptBlocked', { ...decision, blockedAt: AT }, 'script-sc1'),
  recorded('ScriptBlocked', { ...byPolicy, blockedAt: AT }, 'script-sc1'),
  recorded('ScriptReviewRequested', { ...decision, method: 'expiry', by: 'system', justification: null, requestedAt: AT }, 'script-sc1'),
  recorded('ScriptReviewRequested', { ...byPolicy, requestedAt: AT }, 'script-sc1'),
  recorded('ScriptMarkedSuspicious', { scriptId: 'sc1', storeId: 's1', field: 'cvv', markedAt: AT }, 'script-sc1'),
  recorded('SecurityHeadersBaselined', { storeId: 's1', orgId: 'org-1', page: '/checkout', headers: { 'content-security-policy': "default-src 'self'" }, at: AT }, 'headers-s1'),
  recorded('SecurityHeadersChanged', { storeId: 's1', orgId: 'org-1', page: '/checkout', pageUrl: 'https://loja.example/checkout', changes: [{ name: 'x-frame-options', change_type: 'removed', old_value: 'DENY', new_value: null }], at: AT }, 'headers-s1'),
  recorded('CspViolationObserved', { ...seen, directive: 'script-src', blockedUri: 'https://evil.example/x.js', sourceFile: null }, 'observations-s1'),
  recorded('SensitiveFieldAccessed', { ...seen, scriptId: 'sc1', src: 'https://cdn.example/a.js', scriptAuthorized: true, field: 'cvv' }, 'observations-s1'),
  recorded('SensitiveFieldAccessed', { ...seen, scriptId: 'sc1', src: 'https://cdn.example/a.js', scriptAuthorized: true, field: 'cvv', callers: [{ scriptId: 'sc9', src: 'https://evil.example/s.js', scriptAuthorized: false }] }, 'observations-s1'),
  recorded('UnexpectedIframeObserved', { ...seen, origin: 'https://evil.example', host: 'evil.example', expected: ['pay.example'] }, 'observations-s1'),
  recorded('PaymentRecipientMismatched', { ...seen, method: 'pix', keyHash: 'h9', pinned: 2 }, 'observations-s1'),
  recorded('SightingsFlushed', window, 'sightings-s1'),
  recorded('SightingsFlushed', { ...window, pages: [{ path: '/checkout', batches: 3 }], pageViews: { batches: 3, sessions: 2, clients: 2, firstAt: AT, lastAt: LATER } }, 'sightings-s1'),
  recorded('SightingsFlushed', { ...window, pageViews: { batches: 0, sessions: 0, clients: 0, firstAt: null, lastAt: null } }, 'sightings-s1'),
  recorded('PolicyCreated', { policyId: 'p1', orgId: 'org-1', storeId: null, name: 'CDN', active: true, mode: 'automatic', priority: 10, action: 'authorize', match: { host: 'cdn.example' }, conditions: [], version: 1, isDefault: false, createdAt: AT }, 'policy-p1'),
  recorded('PolicyUpdated', { policyId: 'p1', changes: { active: false, match: { host: 'x' } }, version: 2, updatedAt: AT }, 'policy-p1'),
  recorded('PolicyUpdated', { policyId: 'p1', changes: { priority: 5, name: 'CDN 2', conditions: [] }, version: 3, updatedAt: AT }, 'policy-p1'),
  recorded('PolicyDeleted', { policyId: 'p1', deletedAt: AT }, 'policy-p1'),
  // Added with its topic (issue 29): the end of a held mismatch.
  recorded('ScriptIntegrityRestored', { scriptId: 'sc1', storeId: 's1', hash: 'sha384-a', sessions: 3, clients: 2, restoredAt: AT }, 'script-sc1'),
  // Added with its topic (issue 35): the gateways rebuild a store's sdk.js when its rules change.
  recorded('RuleCreated', { ruleId: 'r1', orgId: 'org-1', storeId: 's1', type: 'block', target: 'domain', value: 'evil.example', label: 'Block evil.example', createdAt: AT }, 'rule-r1'),
  recorded('RuleUpdated', { ruleId: 'r1', storeId: 's1', active: false, updatedAt: LATER }, 'rule-r1'),
  recorded('RuleUpdated', { ruleId: 'r1', label: 'recorded before storeId', updatedAt: LATER }, 'rule-r1'),
  recorded('RuleDeleted', { ruleId: 'r1', storeId: 's1', deletedAt: LATER }, 'rule-r1'),
];

// The messages of every sample as inventory published them before its mapper was typed against the catalogue (issue 30).
describeWireFormat('inventory', new InventoryIntegrationEvents(), SAMPLES, join(__dirname, 'inventory.integration-events.wire.jsonl'));
