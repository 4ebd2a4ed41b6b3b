import type { AlertResource, InventoryFactData } from '@pss/contracts';
import type { ReportFact } from '../../report/report-fold';

export const STORE = '0193a5b0-0000-7000-8000-000000000001';
export const ORG = '0193a5b0-0000-7000-8000-0000000000aa';

let sequence = 0;

/** An inventory fact as the bus delivers it, with a fresh id (or the one given, to deliver it again). */
export function fact<Topic extends keyof InventoryFactData>(type: Topic, at: string, data: InventoryFactData[Topic], id?: string): ReportFact {
  sequence += 1;
  return {
    id: id ?? `evt_${sequence}`,
    type,
    version: 1,
    source: 'inventory',
    org_id: ORG,
    store_id: (data as { store_id?: string | null }).store_id ?? null,
    occurred_at: at,
    correlation_id: null,
    position: sequence,
    data,
  } as ReportFact;
}

export function alertFact(type: 'alerts.alert.created' | 'alerts.alert.resolved', at: string, alert: Partial<AlertResource> & { id: string }): ReportFact {
  sequence += 1;
  const resource: AlertResource = {
    org_id: ORG,
    store_id: STORE,
    type: 'HEADER_CHANGED',
    change_type: 'changed',
    severity: 'medium',
    status: 'open',
    source: 'content-security-policy',
    page: '/checkout',
    details: null,
    fingerprint: 'f',
    occurrences: 1,
    sessions_count: 1,
    first_seen_at: at,
    last_seen_at: at,
    resolved_at: null,
    resolved_by_label: null,
    note: null,
    snoozed_until: null,
    auto_resolved: false,
    created_at: at,
    ...alert,
  };
  return { id: `evt_${sequence}`, type, version: 1, source: 'alerts', org_id: ORG, store_id: STORE, occurred_at: at, correlation_id: null, position: sequence, data: resource };
}

export const storeCreated = (at: string): ReportFact =>
  fact('inventory.store.created', at, { store_id: STORE, org_id: ORG, domain: 'loja.example', name: 'Loja São João', timezone: 'America/Sao_Paulo', payment_pages: ['/checkout'], sdk_config: {}, created_at: at });

export const scriptDetected = (scriptId: string, at: string, src = `https://cdn.example/${scriptId}.js`): ReportFact =>
  fact('inventory.script.detected', at, {
    script_id: scriptId,
    store_id: STORE,
    src,
    inline: false,
    host: 'cdn.example',
    type: 'known_third',
    category: 'analytics',
    vendor_id: null,
    status: 'needs_review',
    hash: `sha384-${scriptId}`,
    page_url: 'https://loja.example/checkout',
    session_id: 's1',
    detected_at: at,
  });

export const decided = (type: 'inventory.script.authorized' | 'inventory.script.blocked' | 'inventory.script.review-requested', scriptId: string, at: string, extra: { method?: 'manual' | 'expiry'; expires_at?: string | null } = {}): ReportFact =>
  fact(type, at, {
    script_id: scriptId,
    store_id: STORE,
    method: extra.method ?? 'manual',
    by: 'api:pss_live_abcdefghijklmnopqrstuvwx',
    justification: type === 'inventory.script.authorized' ? 'Analytics do checkout, revisado' : null,
    policy_id: null,
    policy_version: null,
    at,
    ...(type === 'inventory.script.authorized' ? { authorized_hash: `sha384-${scriptId}`, expires_at: extra.expires_at ?? null } : {}),
  });

/** A person resolved or reopened an alert: published without a store, so it reaches the organization's stream. */
export function alertStatusFact(alertId: string, status: 'open' | 'resolved', at: string, note: string | null = null): ReportFact {
  sequence += 1;
  return { id: `evt_${sequence}`, type: 'alerts.alert.status-changed', version: 1, source: 'alerts', org_id: ORG, store_id: null, occurred_at: at, correlation_id: null, position: sequence, data: { alert_id: alertId, status, by: 'api:pss_live_abcdefghijklmnopqrstuvwx', at, note } };
}

/** A further occurrence of an alert, as alerts publishes it: `store_id` null for those recorded before it named one. */
export function alertOccurredFact(alertId: string, at: string, storeId: string | null = STORE): ReportFact {
  sequence += 1;
  return { id: `evt_${sequence}`, type: 'alerts.alert.occurred', version: 1, source: 'alerts', org_id: ORG, store_id: storeId, occurred_at: at, correlation_id: null, position: sequence, data: { alert_id: alertId, at } };
}

/** Pages of facts, as the event store hands them to the builder. */
export async function* pages(facts: ReportFact[], size = 3): AsyncIterable<ReportFact[]> {
  for (let index = 0; index < facts.length; index += size) yield facts.slice(index, index + size);
}
