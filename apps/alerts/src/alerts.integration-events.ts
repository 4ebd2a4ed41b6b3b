import { Injectable } from '@nestjs/common';
import {
  ALERT_OCCURRED,
  ALERT_STATUS_CHANGED,
  ALERT_TOPICS,
  integrationEventId,
  type AlertOccurredData,
  type AlertResource,
  type AlertStatusChangedData,
  type IntegrationEvent,
} from '@pss/contracts';
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

  toIntegrationEvents(recorded: RecordedEvent): IntegrationEvent[] {
    if (!isAlertEvent(recorded)) return [];
    const event = recorded;
    const envelope = (topic: string, id: string, orgId: string | null, storeId: string | null, data: AlertResource | AlertStatusChangedData | AlertOccurredData): IntegrationEvent => ({
      id,
      type: topic,
      version: 1,
      source: 'alerts',
      org_id: orgId,
      store_id: storeId,
      occurred_at: recorded.createdAt,
      correlation_id: (recorded.metadata.correlationId as string | undefined) ?? null,
      position: recorded.position,
      data: { ...data },
    });
    const publish = (topic: string, id: string, alert: AlertResource): IntegrationEvent => envelope(topic, id, alert.org_id, alert.store_id, alert);
    const fact = (topic: string, storeId: string | null, data: AlertStatusChangedData | AlertOccurredData): IntegrationEvent =>
      envelope(topic, integrationEventId(recorded.id), (recorded.metadata.orgId as string | undefined) ?? null, storeId, data);
    switch (event.type) {
      case 'AlertOpened': {
        const { alert } = event.data;
        const topic = ALERT_CATALOGUE[alert.type].topic;
        const created = publish(ALERT_TOPICS.created, integrationEventId(recorded.id), alert);
        // Two messages of one domain event: the second needs an id of its own, as stable as the first.
        return topic ? [created, publish(topic, integrationEventId(deterministicUuid(recorded.id, topic)), alert)] : [created];
      }
      case 'AlertAutoResolved':
        return [publish(ALERT_TOPICS.resolved, integrationEventId(recorded.id), event.data.alert)];
      case 'AlertResolved':
      case 'AlertReopened': {
        // For the reports' as-of view of alerts; the notifier does not listen (the spec sends no webhook event).
        const { alertId, by, at, note } = event.data;
        return [fact(ALERT_STATUS_CHANGED, null, { alert_id: alertId, status: event.type === 'AlertResolved' ? 'resolved' : 'open', by, at, note: note ?? null })];
      }
      case 'AlertOccurred':
        // Without a store (recorded before storeId was added) it goes to the organization's report history.
        return [fact(ALERT_OCCURRED, event.data.storeId ?? null, { alert_id: event.data.alertId, at: event.data.at })];
      default:
        return [];
    }
  }
}
