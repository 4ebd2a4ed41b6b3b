import { Injectable } from '@nestjs/common';
import { integrationEventId, type IntegrationEvent } from '@pss/contracts';
import type { RecordedEvent } from '@pss/event-store';
import { PublishesIntegrationEvents } from '@pss/platform';
import type { IntegrationEventSource } from '@pss/projections';
import type { OrganizationEvent } from './organizations/organization.decider';
import type { StoreEvent } from './stores/store.events';

type Published = { type: string; orgId: string | null; storeId: string | null; data: Record<string, unknown> };

/**
 * Inventory's public facts, published from its event store (docs/events.md lists them). Token events are
 * deliberately not published: nobody outside inventory needs them, and they carry token hashes.
 */
@PublishesIntegrationEvents()
@Injectable()
export class InventoryIntegrationEvents implements IntegrationEventSource {
  readonly name = 'inventory';
  readonly filter = { streamPrefixes: ['org-', 'store-'] };

  toIntegrationEvents(recorded: RecordedEvent): IntegrationEvent[] {
    const orgId = (recorded.metadata.orgId as string | undefined) ?? null;
    const published = publishedFact(recorded as unknown as OrganizationEvent | StoreEvent, orgId);
    if (!published) return [];
    return [
      {
        id: integrationEventId(recorded.id),
        type: published.type,
        version: 1,
        source: 'inventory',
        org_id: published.orgId,
        store_id: published.storeId,
        occurred_at: recorded.createdAt,
        correlation_id: (recorded.metadata.correlationId as string | undefined) ?? null,
        position: recorded.position,
        data: published.data,
      },
    ];
  }
}

function publishedFact(event: OrganizationEvent | StoreEvent, orgId: string | null): Published | undefined {
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
        data: { store_id: data.storeId, org_id: data.orgId, domain: data.domain, name: data.profile.name, sdk_config: data.sdkConfig, created_at: data.createdAt },
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
    default:
      return undefined;
  }
}
