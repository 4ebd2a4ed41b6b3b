import { deterministicUuid, type DomainEvent } from '@pss/kernel';
import type { AlertResource } from '@pss/contracts';
import { canHandle } from '@pss/event-store';

/** A change made by someone: a person through the API (`api:<token prefix>`) or the service itself. */
interface ChangedBy {
  alertId: string;
  by: string;
  at: string;
}

export type AlertEvent =
  /** The first occurrence of a fingerprint (or the first after its last alert was resolved). */
  | DomainEvent<'AlertOpened', { alert: AlertResource; sessionId: string | null; mark: number }>
  /**
   * A further occurrence: counted, and published for reports (alerts.alert.occurred) to count the same way.
   * `storeId` routes it to the store's report history; events recorded before it was added lack it.
   */
  | DomainEvent<'AlertOccurred', { alertId: string; storeId?: string; at: string; sessionId: string | null; newSession: boolean; mark: number }>
  | DomainEvent<'AlertResolved', ChangedBy & { note?: string | null }>
  /** The SDK reported again after an SDK_SILENT alert opened; carries the resolved alert for the notifier. */
  | DomainEvent<'AlertAutoResolved', { alertId: string; at: string; alert: AlertResource }>
  | DomainEvent<'AlertReopened', ChangedBy & { note?: string | null }>
  | DomainEvent<'AlertSnoozed', ChangedBy & { until: string | null }>
  | DomainEvent<'AlertNoted', ChangedBy & { note: string | null }>;

export const alertStream = (alertId: string): string => `alert-${alertId}`;

/**
 * The alerts of one fingerprint are numbered 0, 1, 2… and each one's id is derived from the fingerprint and its
 * number, so every replica names the same alert the same way and opening it is an append to a stream that must
 * not exist yet: two replicas cannot both open one.
 */
export const alertIdFor = (fingerprint: string, incarnation: number): string => deterministicUuid('alert', fingerprint, String(incarnation));

/** The label the service itself acts under: it resolves SDK_SILENT alerts when the SDK reports again. */
export const SYSTEM_ACTOR = 'system';

type Resolution = Pick<AlertResource, 'status' | 'resolved_at' | 'resolved_by_label' | 'auto_resolved'>;

export const resolution = (at: string, by: string, auto: boolean): Resolution => ({ status: 'resolved', resolved_at: at, resolved_by_label: by, auto_resolved: auto });

/** The fields an event sets on its alert, apart from counters: one definition for the decider and the read model. */
export function fieldsSetBy(event: Exclude<AlertEvent, { type: 'AlertOpened' | 'AlertOccurred' }>): Partial<AlertResource> {
  switch (event.type) {
    case 'AlertResolved':
      return { ...resolution(event.data.at, event.data.by, false), ...noteOf(event.data) };
    case 'AlertAutoResolved':
      return resolution(event.data.at, SYSTEM_ACTOR, true);
    case 'AlertReopened':
      return { status: 'open', resolved_at: null, resolved_by_label: null, auto_resolved: false, ...noteOf(event.data) };
    case 'AlertSnoozed':
      return { snoozed_until: event.data.until };
    case 'AlertNoted':
      return { note: event.data.note };
  }
}

/** A note is changed only when one was given. */
const noteOf = (data: { note?: string | null }): Partial<AlertResource> => (data.note === undefined ? {} : { note: data.note });

/** Readers of alert streams (the projection, the publisher) narrow recorded events with this. */
export const isAlertEvent = canHandle<AlertEvent>({
  AlertOpened: true,
  AlertOccurred: true,
  AlertResolved: true,
  AlertAutoResolved: true,
  AlertReopened: true,
  AlertSnoozed: true,
  AlertNoted: true,
});
