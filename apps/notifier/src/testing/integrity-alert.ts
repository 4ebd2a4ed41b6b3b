import type { IntegrationEvent } from '@pss/contracts';

let sequence = 0;

/** An integrity alert as the alerts service publishes it: a fresh event (id, position) on every call. */
export const integrityAlert = (orgId: string, at: Date): IntegrationEvent => {
  const id = `0190c0de-0000-7000-8000-${String(++sequence).padStart(12, '0')}`;
  return {
    id: `evt_${id.replace(/-/g, '')}`,
    type: 'alerts.integrity.changed',
    version: 1,
    source: 'alerts',
    org_id: orgId,
    store_id: 'store-1',
    occurred_at: at.toISOString(),
    correlation_id: null,
    position: sequence,
    data: { id, org_id: orgId, store_id: 'store-1', type: 'SCRIPT_INTEGRITY_MISMATCH', severity: 'high', status: 'open', source: 'https://cdn.example/w.js' },
  };
};
