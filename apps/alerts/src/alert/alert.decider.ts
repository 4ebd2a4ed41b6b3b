import { addDays, notFound, validationError, type Decider } from '@pss/kernel';
import { ALERT_NOTE_MAX, ALERT_NOTE_REFUSALS, refusalDetail, type AlertResource, type AlertSeverity, type AlertStatus, type AlertType } from '@pss/contracts';
import { ALERT_CATALOGUE } from './alert-catalogue';
import { fieldsSetBy, resolution, SYSTEM_ACTOR, type AlertEvent } from './alert.events';

/** Sessions an alert remembers to count them; past this many, sessions_count stays where it is. */
export const MAX_REMEMBERED_SESSIONS = 1000;
/** The longest snooze: an 11.6.1 alert may be muted for a while, not forgotten. */
export const MAX_SNOOZE_DAYS = 30;

/** One sighting of something alert-worthy. */
export interface Occurrence {
  orgId: string;
  storeId: string;
  type: AlertType;
  fingerprint: string;
  changeType: string | null;
  source: string | null;
  page: string | null;
  details: Record<string, unknown>;
  sessionId: string | null;
  /** Above the type's own (ALERT_CATALOGUE) when this occurrence is worse than the type usually is. */
  severity?: AlertSeverity;
  /** When it happened. */
  at: string;
  /**
   * Orders the occurrences of one fingerprint: the inventory event's global position, or for SDK_SILENT the time
   * of the last SDK event before the silence. An alert ignores a mark it has already passed, so the same
   * integration event delivered twice, or the same silence seen by two watchers, changes nothing.
   */
  mark: number;
}

export type AlertCommand =
  | { type: 'RecordOccurrence'; alertId: string; occurrence: Occurrence; at: Date }
  /** PATCH /alerts/{id}: `snoozedUntil` null ends a snooze, undefined leaves it. */
  | { type: 'ChangeAlert'; orgId: string; by: string; status: AlertStatus; note?: string | null; snoozedUntil?: string | null; at: Date }
  | { type: 'ResolveOnSdkActivity'; lastEventAt: string; at: Date };

export interface AlertState {
  alert?: AlertResource;
  sessions: ReadonlySet<string>;
  mark: number;
  /** Reopened by a person: an SDK_SILENT alert then no longer resolves itself. */
  reopened: boolean;
}

/**
 * Where an occurrence belongs, given the newest alert of its fingerprint: it opens the alert (there is none yet),
 * counts on it (open, or resolved but snoozed), was seen already, or belongs to the next alert of the
 * fingerprint (this one was resolved and is not snoozed).
 */
export function placeOccurrence(state: AlertState, occurrence: Occurrence): 'opens' | 'counts' | 'seen' | 'next' {
  if (!state.alert) return 'opens';
  if (occurrence.mark <= state.mark) return 'seen';
  if (state.alert.status === 'open' || isSnoozed(state.alert, occurrence.at)) return 'counts';
  return 'next';
}

const isSnoozed = (alert: AlertResource, at: string): boolean => alert.snoozed_until !== null && Date.parse(at) < Date.parse(alert.snoozed_until);

export const alertDecider: Decider<AlertState, AlertCommand, AlertEvent> = {
  initialState: () => ({ sessions: new Set(), mark: 0, reopened: false }),

  decide(command, state) {
    switch (command.type) {
      case 'RecordOccurrence':
        return record(command, state);
      case 'ChangeAlert':
        return change(command, state);
      case 'ResolveOnSdkActivity':
        return resolveOnSdkActivity(command, state);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'AlertOpened':
        return { alert: event.data.alert, sessions: new Set(event.data.sessionId ? [event.data.sessionId] : []), mark: event.data.mark, reopened: false };
      case 'AlertOccurred': {
        const { data } = event;
        const alert = state.alert!;
        return {
          ...state,
          alert: {
            ...alert,
            occurrences: alert.occurrences + 1,
            sessions_count: alert.sessions_count + (data.newSession ? 1 : 0),
            last_seen_at: data.at > alert.last_seen_at ? data.at : alert.last_seen_at,
          },
          // A new set only when a session is added: at most MAX_REMEMBERED_SESSIONS copies over a stream's life.
          sessions: data.newSession ? new Set([...state.sessions, data.sessionId!]) : state.sessions,
          mark: Math.max(state.mark, data.mark),
        };
      }
      default:
        return { ...state, alert: { ...state.alert!, ...fieldsSetBy(event) }, reopened: state.reopened || event.type === 'AlertReopened' };
    }
  },
};

function record(command: Extract<AlertCommand, { type: 'RecordOccurrence' }>, state: AlertState): AlertEvent[] {
  const { occurrence } = command;
  const { sessionId, mark } = occurrence;
  switch (placeOccurrence(state, occurrence)) {
    case 'opens':
      return [{ type: 'AlertOpened', data: { alert: opened(command.alertId, occurrence, command.at), sessionId, mark } }];
    case 'counts': {
      const newSession = sessionId !== null && !state.sessions.has(sessionId) && state.sessions.size < MAX_REMEMBERED_SESSIONS;
      return [{ type: 'AlertOccurred', data: { alertId: state.alert!.id, storeId: state.alert!.store_id, at: occurrence.at, sessionId, newSession, mark } }];
    }
    default:
      return [];
  }
}

const opened = (id: string, occurrence: Occurrence, at: Date): AlertResource => ({
  id,
  org_id: occurrence.orgId,
  store_id: occurrence.storeId,
  type: occurrence.type,
  change_type: occurrence.changeType,
  severity: occurrence.severity ?? ALERT_CATALOGUE[occurrence.type].severity,
  status: 'open',
  source: occurrence.source,
  page: occurrence.page,
  details: occurrence.details,
  fingerprint: occurrence.fingerprint,
  occurrences: 1,
  sessions_count: occurrence.sessionId ? 1 : 0,
  first_seen_at: occurrence.at,
  last_seen_at: occurrence.at,
  resolved_at: null,
  resolved_by_label: null,
  note: null,
  snoozed_until: null,
  auto_resolved: false,
  created_at: at.toISOString(),
});

/** A person's change: status, note and snooze, each recorded only when it changes something. */
function change(command: Extract<AlertCommand, { type: 'ChangeAlert' }>, state: AlertState): AlertEvent[] {
  const { alert } = state;
  if (!alert || alert.org_id !== command.orgId) throw notFound('Alert');
  const changed = { alertId: alert.id, by: command.by, at: command.at.toISOString() };
  const note = command.note === undefined ? undefined : command.note?.trim() || null;
  // The command's own limit, not only the API's body check: the dashboard sends this command too (issue 32).
  if (note && note.length > ALERT_NOTE_MAX) throw validationError([refusalDetail(ALERT_NOTE_REFUSALS, 'note', 'too_long')]);
  const events: AlertEvent[] = [];
  if (command.status !== alert.status) {
    events.push({ type: command.status === 'resolved' ? 'AlertResolved' : 'AlertReopened', data: { ...changed, ...(note === undefined ? {} : { note }) } });
  } else if (note !== undefined && note !== alert.note) {
    events.push({ type: 'AlertNoted', data: { ...changed, note } });
  }
  const until = command.snoozedUntil === undefined ? undefined : snoozeEnd(command.snoozedUntil, command.at);
  if (until !== undefined && until !== alert.snoozed_until) events.push({ type: 'AlertSnoozed', data: { ...changed, until } });
  return events;
}

function snoozeEnd(until: string | null, at: Date): string | null {
  if (until === null) return null;
  const end = new Date(until);
  if (end <= at || end > addDays(at, MAX_SNOOZE_DAYS)) {
    throw validationError([{ field: 'snoozed_until', message: `snoozed_until must be in the future, at most ${MAX_SNOOZE_DAYS} days ahead` }]);
  }
  return end.toISOString();
}

/** An SDK_SILENT alert closes itself once the SDK reports after the silence began, unless a person reopened it. */
function resolveOnSdkActivity(command: Extract<AlertCommand, { type: 'ResolveOnSdkActivity' }>, state: AlertState): AlertEvent[] {
  const { alert } = state;
  if (!alert || alert.type !== 'SDK_SILENT' || alert.status !== 'open' || state.reopened) return [];
  if (Date.parse(command.lastEventAt) <= state.mark) return [];
  const at = command.at.toISOString();
  return [{ type: 'AlertAutoResolved', data: { alertId: alert.id, at, alert: { ...alert, ...resolution(at, SYSTEM_ACTOR, true) } } }];
}
