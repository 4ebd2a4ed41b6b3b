import type { IntegrationEvent } from '../integration-event';
import { ALERT_TOPICS, type AlertResource, type AlertStatus } from '../read-models/alert';

/** Every alerts topic of ALERT_TOPICS carries the Alert resource as `data` (docs/events.md). */
export type AlertResourceFact = IntegrationEvent<AlertResource> & { type: (typeof ALERT_TOPICS)[keyof typeof ALERT_TOPICS] };

const alertResourceTopics = new Set<string>(Object.values(ALERT_TOPICS));

/** Narrows an integration event to one that carries the Alert resource, by its topic. */
export const isAlertResourceFact = (event: IntegrationEvent<unknown>): event is AlertResourceFact => alertResourceTopics.has(event.type);

/** `alerts.alert.status-changed`: a person resolved or reopened an alert (no webhook event: reports reads it). */
export const ALERT_STATUS_CHANGED = 'alerts.alert.status-changed';

export interface AlertStatusChangedData {
  alert_id: string;
  status: AlertStatus;
  by: string;
  at: string;
  note: string | null;
}

export type AlertFact = AlertResourceFact | (IntegrationEvent<AlertStatusChangedData> & { type: typeof ALERT_STATUS_CHANGED });
