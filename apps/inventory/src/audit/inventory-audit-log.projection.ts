import { auditLogProjection, type AuditedChange } from '@pss/projections';
import { policyEventTypes, type PolicyEvent } from '../policies/policy.decider';
import { ruleEventTypes, type RuleEvent } from '../rules/rule.events';
import type { ScriptDecision, ScriptEvent } from '../scripts/script.events';
import { storeEventTypes, type StoreEvent } from '../stores/store.events';
import type { TokenEvent } from '../tokens/token.decider';

type Audited =
  | Exclude<TokenEvent, { type: 'TokenUsed' }>
  | StoreEvent
  | Extract<ScriptEvent, { type: 'ScriptDetected' | 'ScriptAuthorized' | 'ScriptBlocked' | 'ScriptReviewRequested' }>
  | PolicyEvent
  | RuleEvent;

/** How a script decision was taken: the person's justification, or the policy (and its version) that took it. */
const decided = (decision: ScriptDecision) => ({
  method: decision.method,
  justification: decision.justification,
  policy_id: decision.policyId,
  policy_version: decision.policyVersion,
});

/** The names of the fields a change set, for the log: what changed, not the values (a store's recipients are personal data). */
const changed = (...parts: Array<object | undefined>): string[] =>
  parts.flatMap((part) => Object.entries(part ?? {}).filter(([, value]) => value !== undefined).map(([field]) => field));

/**
 * Inventory's part of the audit log: tokens, stores, script decisions, policies and rules. Token uses, a
 * script's sightings and content changes are the service observing, not anyone changing the configuration. Every
 * store, policy and rule event is a change someone made, so those come as their events list them.
 */
export class InventoryAuditLogProjection extends auditLogProjection<Audited>({
  owner: 'inventory',
  streamPrefixes: ['token-', 'store-', 'script-', 'policy-', 'rule-'],
  handles: {
    TokenIssued: true,
    TokenRevoked: true,
    ...storeEventTypes,
    ScriptDetected: true,
    ScriptAuthorized: true,
    ScriptBlocked: true,
    ScriptReviewRequested: true,
    ...policyEventTypes,
    ...ruleEventTypes,
  },
  describe(event): AuditedChange {
    switch (event.type) {
      case 'TokenIssued': {
        const { tokenId, name, prefix, scopes, expiresAt } = event.data;
        return { target: { type: 'token', id: tokenId, label: name }, action: 'token.created', details: { prefix, scopes, expires_at: expiresAt } };
      }
      case 'TokenRevoked':
        return { target: { type: 'token', id: event.data.tokenId }, action: 'token.revoked' };
      case 'StoreCreated': {
        const { storeId, domain, environment, profile } = event.data;
        return { target: { type: 'store', id: storeId, label: domain }, action: 'store.created', details: { name: profile.name, environment: environment ?? 'production' } };
      }
      case 'StoreUpdated': {
        const { storeId, profile, sdkConfig, recipients } = event.data;
        return { target: { type: 'store', id: storeId }, action: 'store.updated', details: { changed: changed(profile, sdkConfig, { recipients }) } };
      }
      case 'StoreSuspended':
        return { target: { type: 'store', id: event.data.storeId }, action: 'store.suspended' };
      case 'SdkKeyRotated':
        return { target: { type: 'store', id: event.data.storeId }, action: 'store.sdk_key_rotated', details: { previous_key_valid_until: event.data.previousKeyValidUntil } };
      case 'PaymentPagesAdded':
        return { target: { type: 'store', id: event.data.storeId }, action: 'store.payment_pages_added', details: { urls: event.data.pages.map((page) => page.url) } };
      case 'DomainVerified':
        return { target: { type: 'store', id: event.data.storeId, label: event.data.domain }, action: 'store.domain_verified' };
      // Recorded by `system` in the losing store's organization: the verifying store and its actor are another tenant's.
      case 'DomainClaimLost':
        return { target: { type: 'store', id: event.data.storeId, label: event.data.domain }, action: 'store.domain_claim_lost' };
      case 'ScriptDetected':
        return { target: { type: 'script', id: event.data.scriptId, label: event.data.src } };
      case 'ScriptAuthorized': {
        const { scriptId, storeId, expiresAt } = event.data;
        return { target: { type: 'script', id: scriptId }, action: 'script.authorized', details: { ...decided(event.data), store_id: storeId, expires_at: expiresAt } };
      }
      case 'ScriptBlocked': {
        const { scriptId, storeId, ruleId } = event.data;
        return { target: { type: 'script', id: scriptId }, action: 'script.blocked', details: { ...decided(event.data), store_id: storeId, rule_id: ruleId } };
      }
      case 'ScriptReviewRequested':
        return { target: { type: 'script', id: event.data.scriptId }, action: 'script.review_requested', details: { ...decided(event.data), store_id: event.data.storeId } };
      case 'PolicyCreated': {
        const { policyId, name, storeId, action, mode, isDefault } = event.data;
        return { target: { type: 'policy', id: policyId, label: name }, action: 'policy.created', details: { store_id: storeId, action, mode, default: isDefault } };
      }
      case 'PolicyUpdated': {
        const { policyId, changes, version } = event.data;
        return { target: { type: 'policy', id: policyId, label: changes.name }, action: 'policy.updated', details: { changed: changed(changes), version } };
      }
      case 'PolicyDeleted':
        return { target: { type: 'policy', id: event.data.policyId }, action: 'policy.deleted' };
      case 'RuleCreated': {
        const { ruleId, label, storeId, type, target, value } = event.data;
        return { target: { type: 'rule', id: ruleId, label }, action: 'rule.created', details: { store_id: storeId, type, target, value } };
      }
      case 'RuleUpdated': {
        const { ruleId, label, active } = event.data;
        return { target: { type: 'rule', id: ruleId, label }, action: 'rule.updated', details: { changed: changed({ label, active }), ...(active === undefined ? {} : { active }) } };
      }
      case 'RuleDeleted':
        return { target: { type: 'rule', id: event.data.ruleId }, action: 'rule.deleted' };
    }
  },
}) {}
