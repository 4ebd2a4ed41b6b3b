import { Injectable } from '@nestjs/common';
import { ALERT_OCCURRED, ALERT_STATUS_CHANGED, ALERT_TOPICS, integrationEventId, type AlertFact, type AlertResource, type AlertResourceFact } from '@pss/contracts';
import type { RecordedEvent } from '@pss/event-store';
import { deterministicUuid } from '@pss/kernel';
import { PublishesIntegrationEvents } from '@pss/platform';
import type { IntegrationEventSource } from '@pss/projections';
import { ALERT_CATALOGUE } from './alert/alert-catalogue';
import { isAlertEvent } from './alert/alert.events';

/**
 * What the notifier hears of alerts (docs/events.md): an alert opened, on alerts.alert.created and, for three
 * types, on the topic of its own webhook event; an SDK_SILENT alert that closed itself. A further occurrence goes
 * only to alerts.alert.occurred and a person's resolve or reopen only to alerts.alert.status-changed: reports
 * reads them and the notifier does not (the spec sends no webhook event for them).
 */
@PublishesIntegrationEvents()
@Injectable()
export class AlertsIntegrationEvents implements IntegrationEventSource {
  readonly name = 'alerts';
  readonly filter = { streamPrefixes: ['alert-'] };

  toIntegrationEvents(recorded: RecordedEvent): AlertFact[] {
    if (!isAlertEvent(recorded)) return [];
    const event = recorded;
    // The envelope's fields after `id` and `type`, in the order its consumers have always received them.
    const envelope = (orgId: string | null, storeId: string | null) => ({
      version: 1,
      source: 'alerts',
      org_id: orgId,
      store_id: storeId,
      occurred_at: recorded.createdAt,
      correlation_id: (recorded.metadata.correlationId as string | undefined) ?? null,
      position: recorded.position,
    });
    const publish = (topic: AlertResourceFact['type'], id: string, alert: AlertResource): AlertResourceFact => ({ id, type: topic, ...envelope(alert.org_id, alert.store_id), data: { ...alert } });
    const id = integrationEventId(recorded.id);
    const orgId = (recorded.metadata.orgId as string | undefined) ?? null;
    switch (event.type) {
      case 'AlertOpened': {
        const { alert } = event.data;
        const topic = ALERT_CATALOGUE[alert.type].topic;
        const created = publish(ALERT_TOPICS.created, id, alert);
        // Two messages of one domain event: the second needs an id of its own, as stable as the first.
        return topic ? [created, publish(topic, integrationEventId(deterministicUuid(recorded.id, topic)), alert)] : [created];
      }
      case 'AlertAutoResolved':
        return [publish(ALERT_TOPICS.resolved, id, event.data.alert)];
      case 'AlertResolved':
      case 'AlertReopened': {
        // For the reports' as-of view of alerts; the notifier does not listen (the spec sends no webhook event).
        const { alertId, by, at, note } = event.data;
        const status = event.type === 'AlertResolved' ? 'resolved' : 'open';
        return [{ id, type: ALERT_STATUS_CHANGED, ...envelope(orgId, null), data: { alert_id: alertId, status, by, at, note: note ?? null } }];
      }
      case 'AlertOccurred':
        // Without a store (recorded before storeId was added) it goes to the organization's report history.
        return [{ id, type: ALERT_OCCURRED, ...envelope(orgId, event.data.storeId ?? null), data: { alert_id: event.data.alertId, at: event.data.at } }];
      default:
        return [];
    }
  }
}
