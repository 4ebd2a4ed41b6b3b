import { Injectable } from '@nestjs/common';
import { integrationEventId, type IntegrationEvent } from '@pss/contracts';
import type { RecordedEvent } from '@pss/event-store';
import { PublishesIntegrationEvents } from '@pss/platform';
import type { IntegrationEventSource } from '@pss/projections';
import type { OrganizationEvent } from './organizations/organization.decider';

/**
 * Inventory's public facts, published from its event store (docs/events.md lists them). Token events are
 * deliberately not published: nobody outside inventory needs them, and they carry token hashes.
 */
@PublishesIntegrationEvents()
@Injectable()
export class InventoryIntegrationEvents implements IntegrationEventSource {
  readonly name = 'inventory';
  readonly filter = { streamPrefixes: ['org-'] };

  toIntegrationEvents(recorded: RecordedEvent): IntegrationEvent[] {
    const event = recorded as unknown as OrganizationEvent;
    if (event.type !== 'OrganizationCreated') return [];
    const { data } = event;
    return [
      envelope(recorded, 'inventory.organization.created', data.orgId, null, {
        org_id: data.orgId,
        name: data.name,
        plan: data.plan,
        billing_mode: data.billingMode,
        parent_org_id: data.parentOrgId,
        created_at: data.createdAt,
      }),
    ];
  }
}

function envelope(
  recorded: RecordedEvent,
  type: string,
  orgId: string | null,
  storeId: string | null,
  data: Record<string, unknown>,
): IntegrationEvent {
  return {
    id: integrationEventId(recorded.id),
    type,
    version: 1,
    source: 'inventory',
    org_id: orgId,
    store_id: storeId,
    occurred_at: recorded.createdAt,
    correlation_id: (recorded.metadata.correlationId as string | undefined) ?? null,
    position: recorded.position,
    data,
  };
}
