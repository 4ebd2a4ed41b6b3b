import type { AlertStatus } from '../read-models/alert';

export const ALERT_COMMANDS = {
  alertUpdate: 'alerts.alert.update',
} as const;

/** Spec, Limits: an alert's note. */
export const ALERT_NOTE_MAX = 1000;

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
