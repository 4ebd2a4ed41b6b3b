import type { IntegrationEvent } from '../integration-event';
import { ALERT_TOPICS, type AlertResource, type AlertStatus } from '../read-models/alert';

/** Every alerts topic of ALERT_TOPICS carries the Alert resource as `data` (docs/events.md). */
export type AlertResourceFact = IntegrationEvent<AlertResource> & { type: (typeof ALERT_TOPICS)[keyof typeof ALERT_TOPICS] };

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
