import { Injectable } from '@nestjs/common';
import { integrationEventId, type IntegrationEvent } from '@pss/contracts';
import { canHandle, type RecordedEvent, type RecordedOf } from '@pss/event-store';
import { PublishesIntegrationEvents } from '@pss/platform';
import type { IntegrationEventSource } from '@pss/projections';
import type { PageHeadersEvent } from './ingestion/page-headers.decider';
import type { SightingsEvent } from './ingestion/sightings';
import type { SignalEvent } from './ingestion/signals';
import type { OrganizationEvent } from './organizations/organization.decider';
import type { PolicyEvent } from './policies/policy.decider';
import type { ScriptDecision, ScriptEvent } from './scripts/script.events';
import type { StoreEvent } from './stores/store.events';
import { isSightingsEvent, monitoredSpan } from './ingestion/store-activity.projection';
import { isOrganizationEvent } from './organizations/organization.projection';
import { isPolicyEvent } from './policies/policy.projection';
import { isScriptEvent } from './scripts/script.events';
import { isStoreEvent } from './stores/store.projection';

type InventoryEvent = OrganizationEvent | StoreEvent | ScriptEvent | PageHeadersEvent | SignalEvent | SightingsEvent | PolicyEvent;

type Published = { type: string; orgId: string | null; storeId: string | null; data: Record<string, unknown> };

const isPageHeadersEvent = canHandle<PageHeadersEvent>({ SecurityHeadersBaselined: true, SecurityHeadersChanged: true });
const isSignalEvent = canHandle<SignalEvent>({
  CspViolationObserved: true,
  SensitiveFieldAccessed: true,
  UnexpectedIframeObserved: true,
  PaymentRecipientMismatched: true,
});
const isInventoryEvent = (event: RecordedEvent): event is RecordedOf<InventoryEvent> =>
  isOrganizationEvent(event) || isStoreEvent(event) || isScriptEvent(event) || isPageHeadersEvent(event) || isSignalEvent(event) || isSightingsEvent(event) || isPolicyEvent(event);

/**
 * Inventory's public facts, published from its event store (docs/events.md lists them). Token events are
 * deliberately not published: nobody outside inventory needs them, and they carry token hashes.
 */
@PublishesIntegrationEvents()
@Injectable()
export class InventoryIntegrationEvents implements IntegrationEventSource {
  readonly name = 'inventory';
  readonly filter = { streamPrefixes: ['org-', 'store-', 'script-', 'headers-', 'observations-', 'sightings-', 'policy-'] };

  toIntegrationEvents(recorded: RecordedEvent): IntegrationEvent[] {
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
      org_id: published.orgId,
      store_id: published.storeId,
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
  return {
    type: 'inventory.policy.applied',
    orgId,
    storeId: data.storeId,
    data: { policy_id: data.policyId, policy_version: data.policyVersion, script_id: data.scriptId, store_id: data.storeId, action, justification: data.justification },
  };
}

function publishedFact(event: InventoryEvent, orgId: string | null): Published | undefined {
  switch (event.type) {
    case 'OrganizationCreated': {
      const { data } = event;
      return {
        type: 'inventory.organization.created',
        orgId: data.orgId,
        storeId: null,
        data: {
          org_id: data.orgId,
          name: data.name,
          plan: data.plan,
          billing_mode: data.billingMode,
          parent_org_id: data.parentOrgId,
          owner_email: data.ownerEmail,
          created_at: data.createdAt,
        },
      };
    }
    case 'StoreCreated': {
      const { data } = event;
      return {
        type: 'inventory.store.created',
        orgId: data.orgId,
        storeId: data.storeId,
        data: {
          store_id: data.storeId,
          org_id: data.orgId,
          domain: data.domain,
          name: data.profile.name,
          timezone: data.profile.timezone,
          payment_pages: data.pages.map((page) => page.url_pattern),
          sdk_config: data.sdkConfig,
          created_at: data.createdAt,
        },
      };
    }
    case 'StoreUpdated': {
      const { data } = event;
      return {
        type: 'inventory.store.updated',
        orgId,
        storeId: data.storeId,
        data: {
          store_id: data.storeId,
          ...(data.profile ? { profile: data.profile } : {}),
          ...(data.sdkConfig ? { sdk_config: data.sdkConfig } : {}),
          ...(data.recipients ? { recipient_hashes: data.recipients.map((r) => ({ method: r.method, key_hash: r.key_hash })) } : {}),
          updated_at: data.updatedAt,
        },
      };
    }
    case 'StoreSuspended':
      return {
        type: 'inventory.store.suspended',
        orgId,
        storeId: event.data.storeId,
        data: { store_id: event.data.storeId, suspended_at: event.data.suspendedAt },
      };
    case 'PaymentPagesAdded':
      return {
        type: 'inventory.store.pages-added',
        orgId,
        storeId: event.data.storeId,
        data: { store_id: event.data.storeId, payment_pages: event.data.pages.map((page) => page.url_pattern), added_at: event.data.addedAt },
      };
    default:
      return scriptFact(event, orgId) ?? signalFact(event, orgId);
  }
}

function scriptFact(event: InventoryEvent, orgId: string | null): Published | undefined {
  switch (event.type) {
    case 'ScriptDetected': {
      const { data } = event;
      return {
        type: 'inventory.script.detected',
        orgId: data.orgId,
        storeId: data.storeId,
        data: {
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
        },
      };
    }
    case 'ScriptHashChanged': {
      const { data } = event;
      return {
        type: 'inventory.script.hash-changed',
        orgId,
        storeId: data.storeId,
        data: {
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
        },
      };
    }
    case 'ScriptIntegrityRefused': {
      const { data } = event;
      return {
        type: 'inventory.script.integrity-refused',
        orgId,
        storeId: data.storeId,
        data: {
          script_id: data.scriptId,
          store_id: data.storeId,
          src: data.src,
          hash: data.hash,
          refused_integrity: data.refusedIntegrity,
          page_url: data.pageUrl,
          session_id: data.sessionId,
          refused_at: data.refusedAt,
        },
      };
    }
    case 'ScriptAuthorized':
      return decisionFact('inventory.script.authorized', event.data, event.data.authorizedAt, orgId, {
        authorized_hash: event.data.authorizedHash,
        expires_at: event.data.expiresAt,
      });
    case 'ScriptBlocked':
      return decisionFact('inventory.script.blocked', event.data, event.data.blockedAt, orgId);
    case 'ScriptReviewRequested':
      // A policy or the expiry of an authorization sent the script back to review: part of its decision history.
      return decisionFact('inventory.script.review-requested', event.data, event.data.requestedAt, orgId);
    case 'ScriptMarkedSuspicious': {
      const { scriptId, storeId, field, markedAt } = event.data;
      return { type: 'inventory.script.suspicious', orgId, storeId, data: { script_id: scriptId, store_id: storeId, field, at: markedAt } };
    }
    default:
      return undefined;
  }
}

/** A decision on a script (authorize, block, back to review), with who took it, how and why. */
function decisionFact(
  type: string,
  data: ScriptDecision & { scriptId: string; storeId: string },
  at: string,
  orgId: string | null,
  extra: Record<string, unknown> = {},
): Published {
  const { scriptId, storeId, method, by, justification, policyId, policyVersion } = data;
  return {
    type,
    orgId,
    storeId,
    data: { script_id: scriptId, store_id: storeId, method, by, justification, policy_id: policyId, policy_version: policyVersion, at, ...extra },
  };
}

function signalFact(event: InventoryEvent, orgId: string | null): Published | undefined {
  switch (event.type) {
    case 'SecurityHeadersBaselined': {
      const { data } = event;
      return {
        type: 'inventory.headers.baselined',
        orgId: data.orgId,
        storeId: data.storeId,
        data: { store_id: data.storeId, page: data.page, headers: data.headers, at: data.at },
      };
    }
    case 'SecurityHeadersChanged': {
      const { data } = event;
      return {
        type: 'inventory.headers.changed',
        orgId: data.orgId,
        storeId: data.storeId,
        data: { store_id: data.storeId, page: data.page, page_url: data.pageUrl, changes: data.changes, at: data.at },
      };
    }
    case 'CspViolationObserved':
    case 'SensitiveFieldAccessed':
    case 'UnexpectedIframeObserved':
    case 'PaymentRecipientMismatched': {
      const { storeId, orgId: owner, pageUrl, sessionId, at, ...facts } = event.data;
      return {
        type: SIGNAL_TOPICS[event.type],
        orgId: owner,
        storeId,
        data: { store_id: storeId, page_url: pageUrl, session_id: sessionId, at, ...snakeCase(facts) },
      };
    }
    case 'SightingsFlushed': {
      // Only page views are the SDK's activity: a window of heartbeats or lone signals resolves no SDK_SILENT
      // and monitors no week of a report (docs/decisions.md, issue 29).
      const { data } = event;
      const monitored = monitoredSpan(data);
      if (!monitored) return undefined;
      const views = data.pageViews;
      return {
        type: 'inventory.sdk.activity',
        orgId: data.orgId ?? orgId,
        storeId: data.storeId,
        data: {
          store_id: data.storeId,
          first_event_at: monitored.first,
          last_event_at: monitored.last,
          batches: views?.batches ?? data.batches,
          observations: data.observations,
          sessions: views?.sessions ?? Math.max(0, ...data.scripts.map((script) => script.sessions)),
          ...(views ? { clients: views.clients } : {}),
          pages: data.pages ?? [],
        },
      };
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
      return {
        type: 'inventory.policy.created',
        orgId: data.orgId,
        storeId: data.storeId,
        data: {
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
        },
      };
    }
    case 'PolicyUpdated': {
      const { policyId, changes, version, updatedAt } = event.data;
      const { name, active, mode, priority, action } = changes;
      const summary = Object.fromEntries(Object.entries({ name, active, mode, priority, action }).filter(([, value]) => value !== undefined));
      return { type: 'inventory.policy.updated', orgId, storeId: null, data: { policy_id: policyId, changes: summary, version, updated_at: updatedAt } };
    }
    case 'PolicyDeleted':
      return { type: 'inventory.policy.deleted', orgId, storeId: null, data: { policy_id: event.data.policyId, deleted_at: event.data.deletedAt } };
    default:
      return undefined;
  }
}

const SIGNAL_TOPICS = {
  CspViolationObserved: 'inventory.csp.violation',
  SensitiveFieldAccessed: 'inventory.sensitive-field.accessed',
  UnexpectedIframeObserved: 'inventory.iframe.unexpected',
  PaymentRecipientMismatched: 'inventory.recipient.mismatched',
} as const;

/** camelCase keys in snake_case, in lists of objects too (a sensitive-field read's callers). */
const snakeCase = (facts: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(facts).map(([key, value]) => [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), Array.isArray(value) ? value.map(snakeItem) : value]));
const snakeItem = (item: unknown): unknown => (typeof item === 'object' && item !== null ? snakeCase(item as Record<string, unknown>) : item);
