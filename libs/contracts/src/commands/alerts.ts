import type { AlertStatus } from '../read-models/alert';
import type { FieldRefusal } from './field-refusals';

export const ALERT_COMMANDS = {
  alertUpdate: 'alerts.alert.update',
} as const;

/** Spec, Limits: an alert's note. */
export const ALERT_NOTE_MAX = 1000;

/** What the alert's update command refuses of a note, by reason (the API's body check says the same words). */
export const ALERT_NOTE_REFUSALS: readonly FieldRefusal[] = [
  { field: 'note', reason: 'too_long', message: `note must be shorter than or equal to ${ALERT_NOTE_MAX} characters`, params: { max: ALERT_NOTE_MAX } },
];

/** What PATCH /alerts/{id} may change. `snoozed_until: null` ends a snooze. */
export interface UpdateAlertInput {
  status: AlertStatus;
  /** Blank or null clears it. */
  note?: string | null;
  snoozed_until?: string | null;
}

/**
 * `alerts.alert.update`: answered with the Alert once the read model shows the change. The actor in the command
 * metadata becomes `resolved_by_label`.
 */
export interface UpdateAlertRequest {
  orgId: string;
  alertId: string;
  input: UpdateAlertInput;
}
