import type { AlertResource } from '@pss/contracts';
import { deciderSpec } from '@pss/testkit';
import { ALERT_CATALOGUE } from './alert-catalogue';
import { alertDecider, MAX_REMEMBERED_SESSIONS, placeOccurrence, type AlertCommand, type Occurrence } from './alert.decider';
import type { AlertEvent } from './alert.events';

const at = new Date('2026-05-04T10:00:00.000Z');
const later = new Date('2026-05-04T11:00:00.000Z');
const alertId = 'alert-1';
const occurrence = (change: Partial<Occurrence> = {}): Occurrence => ({
  orgId: 'org-1',
  storeId: 'store-1',
  type: 'SCRIPT_INTEGRITY_MISMATCH',
  fingerprint: 'fp',
  changeType: null,
  source: 'https://cdn.example/a.js',
  page: '/checkout',
  details: { script_id: 'sc1', previous_hash: 'sha384-old', new_hash: 'sha384-new' },
  sessionId: 's1',
  at: at.toISOString(),
  mark: 10,
  ...change,
});
const record = (change: Partial<Occurrence> = {}): AlertCommand => ({ type: 'RecordOccurrence', alertId, occurrence: occurrence(change), at });
const patch = (change: Partial<Extract<AlertCommand, { type: 'ChangeAlert' }>>): AlertCommand => ({
  type: 'ChangeAlert',
  orgId: 'org-1',
  by: 'api:pss_tok_0123',
  status: 'open',
  at: later,
  ...change,
});

const alert = (change: Partial<AlertResource> = {}): AlertResource => ({
  id: alertId,
  org_id: 'org-1',
  store_id: 'store-1',
  type: 'SCRIPT_INTEGRITY_MISMATCH',
  change_type: null,
  severity: 'high',
  status: 'open',
  source: 'https://cdn.example/a.js',
  page: '/checkout',
  details: { script_id: 'sc1', previous_hash: 'sha384-old', new_hash: 'sha384-new' },
  fingerprint: 'fp',
  occurrences: 1,
  sessions_count: 1,
  first_seen_at: at.toISOString(),
  last_seen_at: at.toISOString(),
  resolved_at: null,
  resolved_by_label: null,
  note: null,
  snoozed_until: null,
  auto_resolved: false,
  created_at: at.toISOString(),
  ...change,
});
const opened = (change: Partial<AlertResource> = {}, mark = 10): AlertEvent => ({ type: 'AlertOpened', data: { alert: alert(change), sessionId: 's1', mark } });
const occurred = (sessionId: string | null, newSession: boolean, mark: number): AlertEvent => ({
  type: 'AlertOccurred',
  data: { alertId, storeId: 'store-1', at: at.toISOString(), sessionId, newSession, mark },
});
const changed = { alertId, by: 'api:pss_tok_0123', at: later.toISOString() };
const resolved: AlertEvent = { type: 'AlertResolved', data: { ...changed, note: 'Rolled back the CDN' } };
const spec = deciderSpec(alertDecider);
const stateAfter = (events: AlertEvent[]) => events.reduce(alertDecider.evolve, alertDecider.initialState());

describe('alert decider', () => {
  describe('occurrences', () => {
    it('opens an alert on the first occurrence, with the severity of its type', () => {
      spec.given([]).when(record()).then([opened()]);
      const [header] = alertDecider.decide(record({ type: 'HEADER_CHANGED', changeType: 'changed' }), alertDecider.initialState());
      expect(header.data).toMatchObject({ alert: { type: 'HEADER_CHANGED', change_type: 'changed', severity: 'medium' } });
      const [recipient] = alertDecider.decide(record({ type: 'RECIPIENT_MISMATCH', sessionId: null }), alertDecider.initialState());
      expect(recipient.data).toMatchObject({ alert: { severity: 'critical', sessions_count: 0 } });
    });

    it.each(Object.entries(ALERT_CATALOGUE))('opens %s with its severity', (type, { severity }) => {
      const [event] = alertDecider.decide(record({ type: type as Occurrence['type'] }), alertDecider.initialState());
      expect(event).toMatchObject({ type: 'AlertOpened', data: { alert: { type, severity, status: 'open', occurrences: 1 } } });
    });

    it('opens an alert with the severity its occurrence raises it to, above its type\'s', () => {
      const [connection] = alertDecider.decide(record({ type: 'NEW_CONNECTION', severity: 'critical' }), alertDecider.initialState());
      expect(connection.data).toMatchObject({ alert: { type: 'NEW_CONNECTION', severity: 'critical' } });
    });

    it('counts a further occurrence of an open alert, and its session once', () => {
      spec.given([opened()]).when(record({ mark: 11, sessionId: 's2' })).then([occurred('s2', true, 11)]);
      spec.given([opened(), occurred('s2', true, 11)]).when(record({ mark: 12, sessionId: 's2' })).then([occurred('s2', false, 12)]);
      spec.given([opened()]).when(record({ mark: 11, sessionId: null })).then([occurred(null, false, 11)]);
      const state = stateAfter([opened(), occurred('s2', true, 11), occurred('s2', false, 12)]);
      expect(state.alert).toMatchObject({ occurrences: 3, sessions_count: 2, status: 'open' });
    });

    it('changes nothing for an occurrence it has already recorded (a redelivery)', () => {
      spec.given([opened()]).when(record()).thenNothingHappens();
      spec.given([opened(), occurred('s2', true, 11)]).when(record({ mark: 11, sessionId: 's2' })).thenNothingHappens();
      spec.given([opened(), occurred('s2', true, 11), resolved]).when(record({ mark: 11 })).thenNothingHappens();
    });

    it('leaves an occurrence after the alert was resolved to the next alert of the fingerprint', () => {
      spec.given([opened(), resolved]).when(record({ mark: 20 })).thenNothingHappens();
      expect(placeOccurrence(stateAfter([opened(), resolved]), occurrence({ mark: 20 }))).toBe('next');
      expect(placeOccurrence(stateAfter([opened(), resolved]), occurrence({ mark: 10 }))).toBe('seen');
      expect(placeOccurrence(stateAfter([]), occurrence())).toBe('opens');
    });

    it('stops counting sessions past the ones it remembers', () => {
      const sessions = Array.from({ length: MAX_REMEMBERED_SESSIONS - 1 }, (_, n) => occurred(`s${n + 2}`, true, n + 11));
      const full = [opened(), ...sessions];
      expect(stateAfter(full).alert!.sessions_count).toBe(MAX_REMEMBERED_SESSIONS);
      spec.given(full).when(record({ mark: 5000, sessionId: 'one-more' })).then([occurred('one-more', false, 5000)]);
    });
  });

  describe('resolve and reopen by hand', () => {
    it('resolves with the note, then reopens, keeping the note', () => {
      spec.given([opened()]).when(patch({ status: 'resolved', note: '  Rolled back the CDN ' })).then([resolved]);
      const reopened: AlertEvent = { type: 'AlertReopened', data: changed };
      spec.given([opened(), resolved]).when(patch({ status: 'open' })).then([reopened]);
      expect(stateAfter([opened(), resolved]).alert).toMatchObject({
        status: 'resolved',
        resolved_at: later.toISOString(),
        resolved_by_label: 'api:pss_tok_0123',
        note: 'Rolled back the CDN',
        auto_resolved: false,
      });
      expect(stateAfter([opened(), resolved, reopened]).alert).toMatchObject({ status: 'open', resolved_at: null, resolved_by_label: null, note: 'Rolled back the CDN' });
    });

    it('changes only the note when the status is already the one asked for, and nothing when nothing differs', () => {
      spec.given([opened(), resolved]).when(patch({ status: 'resolved', note: 'Vendor confirmed' })).then([{ type: 'AlertNoted', data: { ...changed, note: 'Vendor confirmed' } }]);
      spec.given([opened(), resolved]).when(patch({ status: 'resolved', note: 'Rolled back the CDN' })).thenNothingHappens();
      spec.given([opened()]).when(patch({ status: 'open' })).thenNothingHappens();
    });

    it("does not find another organization's alert, nor one that does not exist", () => {
      spec.given([opened()]).when(patch({ orgId: 'org-2', status: 'resolved' })).thenThrows('not_found');
      spec.given([]).when(patch({ status: 'resolved' })).thenThrows('not_found');
    });

    it('refuses a note longer than the spec allows, as the API does, whoever sends the command', () => {
      spec.given([opened()]).when(patch({ status: 'resolved', note: 'x'.repeat(1001) })).thenThrows('validation_error', /note must be shorter than or equal to 1000 characters/);
      spec.given([opened()]).when(patch({ status: 'resolved', note: ` ${'x'.repeat(1000)} ` })).then([{ type: 'AlertResolved', data: { ...changed, note: 'x'.repeat(1000) } }]);
    });
  });

  describe('snooze', () => {
    const until = '2026-05-11T11:00:00.000Z';
    const snoozed: AlertEvent = { type: 'AlertSnoozed', data: { ...changed, until } };

    it('sets and ends a snooze, within 30 days from now', () => {
      spec.given([opened()]).when(patch({ snoozedUntil: '2026-05-11T08:00:00-03:00' })).then([snoozed]);
      spec.given([opened(), snoozed]).when(patch({ snoozedUntil: null })).then([{ type: 'AlertSnoozed', data: { ...changed, until: null } }]);
      spec.given([opened(), snoozed]).when(patch({ snoozedUntil: until })).thenNothingHappens();
      spec.given([opened()]).when(patch({ snoozedUntil: at.toISOString() })).thenThrows('validation_error', /snoozed_until/);
      spec.given([opened()]).when(patch({ snoozedUntil: '2026-07-01T00:00:00.000Z' })).thenThrows('validation_error', /30 days/);
    });

    it('counts occurrences on a snoozed alert even after it was resolved, instead of opening a new one', () => {
      const during = new Date('2026-05-05T10:00:00.000Z').toISOString();
      spec
        .given([opened(), snoozed, resolved])
        .when(record({ mark: 20, at: during }))
        .then([{ type: 'AlertOccurred', data: { alertId, storeId: 'store-1', at: during, sessionId: 's1', newSession: false, mark: 20 } }]);
      expect(placeOccurrence(stateAfter([opened(), snoozed, resolved]), occurrence({ mark: 20, at: '2026-05-12T00:00:00.000Z' }))).toBe('next');
    });
  });

  describe('SDK_SILENT', () => {
    const silentSince = Date.parse('2026-05-03T09:00:00.000Z');
    const silent = (change: Partial<AlertResource> = {}) => opened({ type: 'SDK_SILENT', severity: 'medium', ...change }, silentSince);
    const resume = (lastEventAt: string): AlertCommand => ({ type: 'ResolveOnSdkActivity', lastEventAt, at: later });

    it('resolves itself when the SDK reports after the silence began, with the resolved alert for the notifier', () => {
      const [event] = alertDecider.decide(resume('2026-05-04T10:59:00.000Z'), stateAfter([silent()]));
      expect(event).toEqual({
        type: 'AlertAutoResolved',
        data: {
          alertId,
          at: later.toISOString(),
          alert: alert({ type: 'SDK_SILENT', severity: 'medium', status: 'resolved', resolved_at: later.toISOString(), resolved_by_label: 'system', auto_resolved: true }),
        },
      });
    });

    it('stays open for activity from before the silence, and once a person reopened it', () => {
      spec.given([silent()]).when(resume('2026-05-03T09:00:00.000Z')).thenNothingHappens();
      spec.given([silent(), resolved, { type: 'AlertReopened', data: changed }]).when(resume('2026-05-04T10:59:00.000Z')).thenNothingHappens();
      spec.given([opened()]).when(resume('2026-05-04T10:59:00.000Z')).thenNothingHappens();
    });

    it('counts the same silence once, however many watchers see it', () => {
      spec.given([silent()]).when(record({ type: 'SDK_SILENT', mark: silentSince })).thenNothingHappens();
    });
  });
});
