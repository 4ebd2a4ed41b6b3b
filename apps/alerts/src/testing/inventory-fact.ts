import type { IntegrationEvent } from '@pss/contracts';

/** An inventory fact as the bus delivers it; `position` orders facts as inventory's publisher would. */
export function inventoryFact<Data extends object>(
  type: string,
  data: Data,
  change: Partial<IntegrationEvent> = {},
): IntegrationEvent<Data & { store_id: string }> {
  return {
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
}
