import type { IntegrationEvent } from '../integration-event';
import { ALERT_TOPICS, type AlertResource } from '../read-models/alert';

/** Every alerts topic carries the Alert resource as `data` (docs/events.md). */
export type AlertFact = IntegrationEvent<AlertResource> & { type: (typeof ALERT_TOPICS)[keyof typeof ALERT_TOPICS] };
