import type { IntegrationEvent, InventoryFactData, InventoryFactOf, InventoryTopic } from '@pss/contracts';

/**
 * An inventory fact of `type` as the bus delivers it; `position` orders facts as inventory's publisher would.
 * Specs give only the fields of `data` that the code under test reads: the rest of the catalogue's is left out.
 */
export function inventoryFact<Topic extends InventoryTopic>(
  type: Topic,
  data: Partial<InventoryFactData[Topic]>,
  change: Partial<IntegrationEvent<unknown>> = {},
): InventoryFactOf<Topic> {
  const fact = {
    id: `evt_${type}_${change.position ?? 42}`,
    type,
    version: 1,
    source: 'inventory',
    org_id: 'org-1',
    store_id: 'store-1',
    occurred_at: '2026-05-04T15:00:00.000Z',
    correlation_id: null,
    position: 42,
    ...change,
    data: { store_id: change.store_id ?? 'store-1', ...data },
  };
  return fact as InventoryFactOf<Topic>;
}
