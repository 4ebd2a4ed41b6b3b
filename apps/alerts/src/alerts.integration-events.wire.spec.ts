import { join } from 'node:path';
import type { AlertResource } from '@pss/contracts';
import type { RecordedEvent } from '@pss/event-store';
import { describeWireFormat } from '@pss/testkit';
import { AlertsIntegrationEvents } from './alerts.integration-events';

const AT = '2026-05-04T15:00:00.000Z';
let n = 0;
const recorded = (type: string, data: Record<string, unknown>, metadata: Record<string, unknown> = { orgId: 'org-1', actor: 'system' }): RecordedEvent => {
  n += 1;
  return { id: `01900000-0000-7000-8000-0000000000${String(n).padStart(2, '0')}`, stream: 'alert-a1', revision: n, position: 100 + n, type, data, metadata, createdAt: AT };
};
const alert = (change: Partial<AlertResource>): AlertResource => ({
  id: 'a1',
  org_id: 'org-1',
  store_id: 's1',
  type: 'SCRIPT_INTEGRITY_MISMATCH',
  change_type: null,
  severity: 'high',
  status: 'open',
  source: 'https://cdn.example/a.js',
  page: '/checkout',
  details: { script_id: 'sc1' },
  occurrences: 1,
  first_seen_at: AT,
  last_seen_at: AT,
  resolved_at: null,
  resolved_by_label: null,
  auto_resolved: false,
  note: null,
  snoozed_until: null,
  fingerprint: 'f1',
  sessions_count: 1,
  created_at: AT,
  ...change,
});

/** One recorded event of every kind alerts publishes, and the edge cases of each mapping. */
const SAMPLES: RecordedEvent[] = [
  recorded('AlertOpened', { alert: alert({}), sessionId: 'sess', mark: 7 }, { orgId: 'org-1', actor: 'system', correlationId: 'req-1' }),
  recorded('AlertOpened', { alert: alert({ type: 'HEADER_CHANGED', change_type: 'removed', severity: 'medium' }), sessionId: null, mark: 8 }),
  recorded('AlertOpened', { alert: alert({ type: 'SDK_SILENT', severity: 'medium', page: null }), sessionId: null, mark: 9 }),
  recorded('AlertOpened', { alert: alert({ type: 'CSP_VIOLATION', severity: 'medium' }), sessionId: 'sess', mark: 10 }),
  recorded('AlertAutoResolved', { alertId: 'a1', at: AT, alert: alert({ type: 'SDK_SILENT', status: 'resolved', resolved_at: AT, auto_resolved: true }) }),
  recorded('AlertResolved', { alertId: 'a1', by: 'api:tok', at: AT, note: 'fixed' }),
  recorded('AlertReopened', { alertId: 'a1', by: 'api:tok', at: AT }),
  recorded('AlertOccurred', { alertId: 'a1', storeId: 's1', at: AT, sessionId: 'sess', newSession: true, mark: 11 }),
  recorded('AlertOccurred', { alertId: 'a1', at: AT, sessionId: null, newSession: false, mark: 12 }),
  recorded('AlertSnoozed', { alertId: 'a1', by: 'api:tok', at: AT, until: AT }),
];

// The messages of every sample as alerts published them before its mapper was typed against the catalogue (issue 30).
describeWireFormat('alerts', new AlertsIntegrationEvents(), SAMPLES, join(__dirname, 'alerts.integration-events.wire.jsonl'));
