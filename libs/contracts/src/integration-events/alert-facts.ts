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

/**
 * `alerts.alert.occurred`: a further occurrence counted on an open (or snoozed) alert. Reports counts these on the
 * alert it opened, as the alerts service counts them, so a report shows the occurrences and last sighting GET
 * /alerts/{id} shows. Not a webhook event.
 */
export const ALERT_OCCURRED = 'alerts.alert.occurred';

export interface AlertOccurredData {
  alert_id: string;
  /** When it was seen (the alert's last_seen_at is the latest of these). */
  at: string;
}

export type AlertFact =
  | AlertResourceFact
  | (IntegrationEvent<AlertStatusChangedData> & { type: typeof ALERT_STATUS_CHANGED })
  | (IntegrationEvent<AlertOccurredData> & { type: typeof ALERT_OCCURRED });
