import { auditLogProjection, type AuditedChange } from '@pss/projections';
import type { AlertEvent } from '../alert/alert.events';

type Audited = Exclude<AlertEvent, { type: 'AlertOccurred' }>;

/**
 * The alerts' part of the audit log: who resolved, reopened, snoozed or annotated an alert (an automatic
 * resolution is the service's, `system`). An alert opening or recurring is detection, not a change: it only
 * names the alert, by its type, for the entries that follow.
 */
export class AlertsAuditLogProjection extends auditLogProjection<Audited>({
  owner: 'alerts',
  streamPrefixes: ['alert-'],
  handles: { AlertOpened: true, AlertResolved: true, AlertAutoResolved: true, AlertReopened: true, AlertSnoozed: true, AlertNoted: true },
  describe(event): AuditedChange {
    switch (event.type) {
      case 'AlertOpened':
        return { target: { type: 'alert', id: event.data.alert.id, label: event.data.alert.type } };
      case 'AlertResolved':
        return { target: { type: 'alert', id: event.data.alertId }, action: 'alert.resolved', details: { note: event.data.note ?? null } };
      case 'AlertAutoResolved':
        return { target: { type: 'alert', id: event.data.alertId }, action: 'alert.resolved', details: { automatic: true } };
      case 'AlertReopened':
        return { target: { type: 'alert', id: event.data.alertId }, action: 'alert.reopened', details: { note: event.data.note ?? null } };
      case 'AlertSnoozed':
        return { target: { type: 'alert', id: event.data.alertId }, action: 'alert.snoozed', details: { until: event.data.until } };
      case 'AlertNoted':
        return { target: { type: 'alert', id: event.data.alertId }, action: 'alert.noted', details: { note: event.data.note } };
    }
  },
}) {}
