import { Injectable } from '@nestjs/common';
import {
  INVENTORY_TOPICS as T,
  integrationEventId,
  type IntegrationEvent,
  type InventoryFactData,
  type InventoryFactOf,
  type InventoryTopic,
  type ConnectionSeenFact,
  type PolicySummary,
  type ScriptDecisionFact,
} from '@pss/contracts';
import { canHandle, type RecordedEvent, type RecordedOf } from '@pss/event-store';
import { PublishesIntegrationEvents } from '@pss/platform';
import type { IntegrationEventSource } from '@pss/projections';
import type { ConnectionEvent, ConnectionSighting } from './connections/connection.events';
import { isConnectionEvent } from './connections/connection.projection';
import type { PageHeadersEvent } from './ingestion/page-headers.decider';
import type { SightingsEvent } from './ingestion/sightings';
import type { Seen, SignalEvent } from './ingestion/signals';
import type { OrganizationEvent } from './organizations/organization.decider';
import type { PolicyEvent } from './policies/policy.decider';
import type { RuleEvent } from './rules/rule.events';
import type { ScriptDecision, ScriptEvent } from './scripts/script.events';
import type { StoreEvent } from './stores/store.events';
import { isSightingsEvent, monitoredSpan } from './ingestion/store-activity.projection';
import { isOrganizationEvent } from './organizations/organization.projection';
import { isPolicyEvent } from './policies/policy.projection';
import { isRuleEvent } from './rules/rule.projection';
import { isScriptEvent } from './scripts/script.events';
import { isStoreEvent } from './stores/store.projection';

type InventoryEvent = OrganizationEvent | StoreEvent | ScriptEvent | PageHeadersEvent | SignalEvent | SightingsEvent | PolicyEvent | RuleEvent | ConnectionEvent;

/** A fact before its envelope, typed per topic by the catalogue (libs/contracts) its consumers and docs read. */
type PublishedOf<Topic extends InventoryTopic> = Pick<InventoryFactOf<Topic>, 'type' | 'org_id' | 'store_id' | 'data'>;
type Published = { [Topic in InventoryTopic]: PublishedOf<Topic> }[InventoryTopic];

/**
 * `Value` with each key the catalogue's `Shape` lacks as `never`, at every depth: unlike an object literal's own
 * check, this catches a field that arrives in a spread or in an object passed through (a profile, a caller).
 */
type Catalogued<Shape, Value> = Value extends readonly (infer Item)[]
  ? NonNullable<Shape> extends readonly (infer ShapeItem)[]
    ? Catalogued<ShapeItem, Item>[]
    : Value
  : Value extends object
    ? { [Key in keyof Value]: Key extends keyof NonNullable<Shape> ? Catalogued<NonNullable<Shape>[Key], Value[Key]> : never }
    : Value;

/** A fact of `type`: its `data` must be the catalogue's, with no field the catalogue (and so the docs) lacks. */
function fact<Topic extends InventoryTopic, Data extends InventoryFactData[Topic]>(
  type: Topic,
  orgId: string | null,
  storeId: string | null,
  data: Data & Catalogued<InventoryFactData[Topic], Data>,
): PublishedOf<Topic> {
  return { type, org_id: orgId, store_id: storeId, data };
}

const isPageHeadersEvent = canHandle<PageHeadersEvent>({ SecurityHeadersBaselined: true, SecurityHeadersChanged: true });
const isSignalEvent = canHandle<SignalEvent>({
  CspViolationObserved: true,
  SensitiveFieldAccessed: true,
  UnexpectedIframeObserved: true,
  PaymentRecipientMismatched: true,
});
const isInventoryEvent = (event: RecordedEvent): event is RecordedOf<InventoryEvent> =>
  isOrganizationEvent(event) || isStoreEvent(event) || isScriptEvent(event) || isPageHeadersEvent(event) || isSignalEvent(event) || isSightingsEvent(event) || isPolicyEvent(event) || isRuleEvent(event) || isConnectionEvent(event);

/**
 * Inventory's public facts, published from its event store (docs/events.md lists them). Token events are
 * deliberately not published: nobody outside inventory needs them, and they carry token hashes.
 */
@PublishesIntegrationEvents()
@Injectable()
export class InventoryIntegrationEvents implements IntegrationEventSource {
  readonly name = 'inventory';
  readonly filter = { streamPrefixes: ['org-', 'store-', 'script-', 'headers-', 'observations-', 'sightings-', 'policy-', 'rule-', 'connection-'] };

  toIntegrationEvents(recorded: RecordedEvent): IntegrationEvent<unknown>[] {
    const orgId = (recorded.metadata.orgId as string | undefined) ?? null;
    if (!isInventoryEvent(recorded)) return [];
    const event = recorded;
    const facts = [publishedFact(event, orgId), policyApplied(event, orgId)].filter((fact): fact is Published => fact !== undefined);
    // The first fact keeps the domain event's id; a second one from the same event gets a derived, stable one.
    return facts.map((published, index) => ({
      id: integrationEventId(index === 0 ? recorded.id : `${recorded.id}-${index}`),
      type: published.type,
      version: 1,
      source: 'inventory',
      org_id: published.org_id,
      store_id: published.store_id,
      occurred_at: recorded.createdAt,
      correlation_id: (recorded.metadata.correlationId as string | undefined) ?? null,
      position: recorded.position,
      data: published.data,
    }));
  }
}

/** `policy.applied`: an approval policy decided on a script (automatic mode or Apply). */
function policyApplied(event: InventoryEvent, orgId: string | null): Published | undefined {
  if (event.type !== 'ScriptAuthorized' && event.type !== 'ScriptBlocked' && event.type !== 'ScriptReviewRequested') return undefined;
  const { data } = event;
  if (data.method !== 'policy' || !data.policyId) return undefined;
  const action = event.type === 'ScriptAuthorized' ? 'authorize' : event.type === 'ScriptBlocked' ? 'block' : 'needs_review';
  return fact(T.policyApplied, orgId, data.storeId, {
    policy_id: data.policyId,
    policy_version: data.policyVersion,
    script_id: data.scriptId,
    store_id: data.storeId,
    action,
    justification: data.justification,
  });
}

function publishedFact(event: InventoryEvent, orgId: string | null): Published | undefined {
  switch (event.type) {
    case 'OrganizationCreated': {
      const { data } = event;
      return fact(T.organizationCreated, data.orgId, null, {
        org_id: data.orgId,
        name: data.name,
        plan: data.plan,
        billing_mode: data.billingMode,
        parent_org_id: data.parentOrgId,
        owner_email: data.ownerEmail,
        created_at: data.createdAt,
      });
    }
    case 'StoreCreated': {
      const { data } = event;
      return fact(T.storeCreated, data.orgId, data.storeId, {
        store_id: data.storeId,
        org_id: data.orgId,
        domain: data.domain,
        name: data.profile.name,
        timezone: data.profile.timezone,
        payment_pages: data.pages.map((page) => page.url_pattern),
        sdk_config: data.sdkConfig,
        created_at: data.createdAt,
      });
    }
    case 'StoreUpdated': {
      const { data } = event;
      return fact(T.storeUpdated, orgId, data.storeId, {
        store_id: data.storeId,
        ...(data.profile ? { profile: data.profile } : {}),
        ...(data.sdkConfig ? { sdk_config: data.sdkConfig } : {}),
        ...(data.recipients ? { recipient_hashes: data.recipients.map((r) => ({ method: r.method, key_hash: r.key_hash })) } : {}),
        updated_at: data.updatedAt,
      });
    }
    case 'StoreSuspended':
      return fact(T.storeSuspended, orgId, event.data.storeId, { store_id: event.data.storeId, suspended_at: event.data.suspendedAt });
    case 'PaymentPagesAdded':
      return fact(T.storePagesAdded, orgId, event.data.storeId, {
        store_id: event.data.storeId,
        payment_pages: event.data.pages.map((page) => page.url_pattern),
        added_at: event.data.addedAt,
      });
    default:
      return scriptFact(event, orgId) ?? signalFact(event, orgId);
  }
}

function scriptFact(event: InventoryEvent, orgId: string | null): Published | undefined {
  switch (event.type) {
    case 'ScriptDetected': {
      const { data } = event;
      return fact(T.scriptDetected, data.orgId, data.storeId, {
        script_id: data.scriptId,
        store_id: data.storeId,
        src: data.src,
        inline: data.inline,
        host: data.host,
        type: data.type,
        category: data.category,
        vendor_id: data.vendorId,
        status: data.status,
        hash: data.hash,
        sri_hash: data.sriHash,
        integrity_attr: data.integrityAttr,
        page_url: data.pageUrl,
        session_id: data.sessionId,
        detected_at: data.detectedAt,
      });
    }
    case 'ScriptHashChanged': {
      const { data } = event;
      return fact(T.scriptHashChanged, orgId, data.storeId, {
        script_id: data.scriptId,
        store_id: data.storeId,
        src: data.src,
        previous_hash: data.previousHash,
        new_hash: data.hash,
        authorized_hash: data.authorizedHash,
        integrity_status: data.integrityStatus,
        unauthorized_change: data.unauthorizedChange,
        page_url: data.pageUrl,
        session_id: data.sessionId,
        changed_at: data.changedAt,
      });
    }
    case 'ScriptIntegrityRefused': {
      const { data } = event;
      return fact(T.scriptIntegrityRefused, orgId, data.storeId, {
        script_id: data.scriptId,
        store_id: data.storeId,
        src: data.src,
        hash: data.hash,
        refused_integrity: data.refusedIntegrity,
        page_url: data.pageUrl,
        session_id: data.sessionId,
        refused_at: data.refusedAt,
      });
    }
    // Reports show a held mismatch from the hash-changed facts: they must also see it end with no decision.
    case 'ScriptIntegrityRestored': {
      const { scriptId, storeId, hash, sessions, clients, restoredAt } = event.data;
      return fact(T.scriptIntegrityRestored, orgId, storeId, { script_id: scriptId, store_id: storeId, hash, sessions, clients, restored_at: restoredAt });
    }
    case 'ScriptAuthorized': {
      const { data } = event;
      return fact(T.scriptAuthorized, orgId, data.storeId, { ...decision(data, data.authorizedAt), authorized_hash: data.authorizedHash, expires_at: data.expiresAt });
    }
    case 'ScriptBlocked':
      return fact(T.scriptBlocked, orgId, event.data.storeId, decision(event.data, event.data.blockedAt));
    case 'ScriptReviewRequested':
      // A policy or the expiry of an authorization sent the script back to review: part of its decision history.
      return fact(T.scriptReviewRequested, orgId, event.data.storeId, decision(event.data, event.data.requestedAt));
    case 'ScriptMarkedSuspicious': {
      const { scriptId, storeId, field, markedAt } = event.data;
      return fact(T.scriptSuspicious, orgId, storeId, { script_id: scriptId, store_id: storeId, field, at: markedAt });
    }
    default:
      return undefined;
  }
}

/** A decision on a script (authorize, block, back to review), with who took it, how and why. */
function decision(data: ScriptDecision & { scriptId: string; storeId: string }, at: string): Omit<ScriptDecisionFact, 'authorized_hash' | 'expires_at'> {
  const { scriptId, storeId, method, by, justification, policyId, policyVersion } = data;
  return { script_id: scriptId, store_id: storeId, method, by, justification, policy_id: policyId, policy_version: policyVersion, at };
}

function signalFact(event: InventoryEvent, orgId: string | null): Published | undefined {
  switch (event.type) {
    case 'SecurityHeadersBaselined': {
      const { data } = event;
      return fact(T.headersBaselined, data.orgId, data.storeId, { store_id: data.storeId, page: data.page, headers: data.headers, at: data.at });
    }
    case 'SecurityHeadersChanged': {
      const { data } = event;
      return fact(T.headersChanged, data.orgId, data.storeId, { store_id: data.storeId, page: data.page, page_url: data.pageUrl, changes: data.changes, at: data.at });
    }
    case 'CspViolationObserved':
      return fact(T.cspViolation, event.data.orgId, event.data.storeId, seenOnPage(event.data));
    case 'SensitiveFieldAccessed':
      return fact(T.sensitiveFieldAccessed, event.data.orgId, event.data.storeId, seenOnPage(event.data));
    case 'UnexpectedIframeObserved':
      return fact(T.iframeUnexpected, event.data.orgId, event.data.storeId, seenOnPage(event.data));
    case 'PaymentRecipientMismatched':
      return fact(T.recipientMismatched, event.data.orgId, event.data.storeId, seenOnPage(event.data));
    case 'ConnectionDetected': {
      const { data } = event;
      const read = data.afterUnauthorizedRead;
      return fact(T.connectionDetected, data.orgId, data.storeId, {
        ...connectionSeen(data),
        page_url: data.pageUrl,
        session_id: data.sessionId,
        sensitive_read: read && { script_id: read.scriptId, src: read.src, field: read.field },
      });
    }
    case 'ConnectionSeen':
      return fact(T.connectionSeen, event.data.orgId, event.data.storeId, connectionSeen(event.data));
    case 'SightingsFlushed': {
      // Only page views are the SDK's activity: a window of heartbeats or lone signals resolves no SDK_SILENT
      // and monitors no week of a report (docs/decisions.md, issue 29).
      const { data } = event;
      const monitored = monitoredSpan(data);
      if (!monitored) return undefined;
      const views = data.pageViews;
      return fact(T.sdkActivity, data.orgId ?? orgId, data.storeId, {
        store_id: data.storeId,
        first_event_at: monitored.first,
        last_event_at: monitored.last,
        batches: views?.batches ?? data.batches,
        observations: data.observations,
        sessions: views?.sessions ?? Math.max(0, ...data.scripts.map((script) => script.sessions)),
        ...(views ? { clients: views.clients } : {}),
        pages: data.pages ?? [],
      });
    }
    default:
      return policyFact(event, orgId);
  }
}

/** Policies as an assessor reads them (name, mode, action, priority), for the reports' policy section. */
function policyFact(event: InventoryEvent, orgId: string | null): Published | undefined {
  switch (event.type) {
    case 'PolicyCreated': {
      const { data } = event;
      return fact(T.policyCreated, data.orgId, data.storeId, {
        policy_id: data.policyId,
        store_id: data.storeId,
        name: data.name,
        active: data.active,
        mode: data.mode,
        priority: data.priority,
        action: data.action,
        version: data.version,
        is_default: data.isDefault,
        created_at: data.createdAt,
      });
    }
    case 'PolicyUpdated': {
      const { policyId, changes, version, updatedAt } = event.data;
      const { name, active, mode, priority, action } = changes;
      const summary: Partial<PolicySummary> = Object.fromEntries(Object.entries({ name, active, mode, priority, action }).filter(([, value]) => value !== undefined));
      return fact(T.policyUpdated, orgId, null, { policy_id: policyId, changes: summary, version, updated_at: updatedAt });
    }
    case 'PolicyDeleted':
      return fact(T.policyDeleted, orgId, null, { policy_id: event.data.policyId, deleted_at: event.data.deletedAt });
    default:
      return ruleFact(event, orgId);
  }
}

/** That a store's rules changed, not the rule: the gateways rebuild the store's sdk.js from the read model. */
function ruleFact(event: InventoryEvent, orgId: string | null): Published | undefined {
  switch (event.type) {
    case 'RuleCreated':
      return fact(T.ruleChanged, orgId, event.data.storeId, { rule_id: event.data.ruleId, store_id: event.data.storeId, change: 'created', at: event.data.createdAt });
    case 'RuleUpdated': {
      const storeId = event.data.storeId ?? null;
      return fact(T.ruleChanged, orgId, storeId, { rule_id: event.data.ruleId, store_id: storeId, change: 'updated', at: event.data.updatedAt });
    }
    case 'RuleDeleted': {
      const storeId = event.data.storeId ?? null;
      return fact(T.ruleChanged, orgId, storeId, { rule_id: event.data.ruleId, store_id: storeId, change: 'deleted', at: event.data.deletedAt });
    }
    default:
      return undefined;
  }
}

/**
 * A signal's data as published: where it was seen, then the rest of the domain event's fields in snake_case, in
 * the order they were recorded (older events included), so the bytes on the wire follow the event store's.
 */
/** A connection's sighting as its facts carry it. */
function connectionSeen(data: ConnectionSighting): ConnectionSeenFact {
  const { connectionId, storeId, origin, via, page, initiator, at } = data;
  return { connection_id: connectionId, store_id: storeId, origin, via, page, initiator: initiator && { script_id: initiator.scriptId, src: initiator.src }, at };
}

function seenOnPage<Data extends Seen>({ storeId, orgId: _orgId, pageUrl, sessionId, at, ...facts }: Data) {
  return { store_id: storeId, page_url: pageUrl, session_id: sessionId, at, ...snakeCase(facts) };
}

/** `sourceFile` as `source_file`: the type of what `snakeCase` makes of a domain event's fields. */
type Snake<Name extends string> = Name extends `${infer Head}${infer Tail}` ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${Snake<Tail>}` : Name;
type SnakeCased<Facts> = { [Key in keyof Facts as Snake<Key & string>]: SnakeValue<Facts[Key]> };
type SnakeValue<Value> = Value extends Array<infer Item> ? Array<Item extends object ? SnakeCased<Item> : Item> : Value;

/** camelCase keys in snake_case, in lists of objects too (a sensitive-field read's callers). */
function snakeCase<Facts extends object>(facts: Facts): SnakeCased<Facts> {
  // Object.entries loses the keys' types; SnakeCased says what the renaming below makes of them.
  return Object.fromEntries(Object.entries(facts).map(([key, value]) => [snakeKey(key), Array.isArray(value) ? value.map(snakeItem) : value])) as SnakeCased<Facts>;
}
const snakeKey = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const snakeItem = (item: unknown): unknown => (typeof item === 'object' && item !== null ? snakeCase(item) : item);
