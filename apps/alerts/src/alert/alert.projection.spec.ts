import { ALERTS, type AlertResource } from '@pss/contracts';
import { expectReplayedTwice, replayedTwice, storedEventsOn } from '@pss/testkit';
import type { AlertEvent } from './alert.events';
import { AlertProjection } from './alert.projection';

const stored = storedEventsOn<AlertEvent>('alert-a1');

const opened: AlertResource = {
  id: 'a1',
  org_id: 'o1',
  store_id: 's1',
  type: 'SCRIPT_INTEGRITY_MISMATCH',
  change_type: null,
  severity: 'critical',
  status: 'open',
  source: 'https://cdn.example/pay.js',
  page: '/checkout',
  details: { expected_hash: 'a'.repeat(64) },
  fingerprint: 'f'.repeat(64),
  occurrences: 1,
  sessions_count: 1,
  first_seen_at: 'T1',
  last_seen_at: 'T1',
  resolved_at: null,
  resolved_by_label: null,
  note: null,
  snoozed_until: null,
  auto_resolved: false,
  created_at: 'T1',
};

/** Every alert event handled twice in a row, then the whole log again: the same alert as handled once. */
describe('AlertProjection replayed twice', () => {
  it('counts each occurrence and new session once, and keeps the latest sighting', async () => {
    const events = [
      stored('AlertOpened', { alert: opened, sessionId: 'x1', mark: 1 }),
      stored('AlertOccurred', { alertId: 'a1', at: 'T3', sessionId: 'x2', newSession: true, mark: 2 }),
      stored('AlertOccurred', { alertId: 'a1', at: 'T2', sessionId: 'x2', newSession: false, mark: 3 }),
    ];
    const twice = await replayedTwice(AlertProjection, events);
    const { id: _id, ...fields } = opened;
    expect(twice[ALERTS]).toEqual([expect.objectContaining({ ...fields, _id: 'a1', occurrences: 3, sessions_count: 2, last_seen_at: 'T3', first_seen_at: 'T1' })]);
  });

  it('applies resolve, reopen, snooze and note in their order, the note kept where none was given', async () => {
    const events = [
      stored('AlertOpened', { alert: opened, sessionId: null, mark: 1 }),
      stored('AlertResolved', { alertId: 'a1', by: 'api:pss_ab12', at: 'T2', note: 'vendor update' }),
      stored('AlertReopened', { alertId: 'a1', by: 'api:pss_ab12', at: 'T3' }),
      stored('AlertSnoozed', { alertId: 'a1', by: 'api:pss_ab12', at: 'T4', until: 'T9' }),
      stored('AlertOccurred', { alertId: 'a1', at: 'T5', sessionId: null, newSession: false, mark: 2 }),
    ];
    await expectReplayedTwice(AlertProjection, events, ALERTS, [
      {
        _id: 'a1',
        status: 'open',
        resolved_at: null,
        resolved_by_label: null,
        auto_resolved: false,
        note: 'vendor update',
        snoozed_until: 'T9',
        occurrences: 2,
        sessions_count: 1,
        last_seen_at: 'T5',
      },
    ]);
  });

  it('shows an alert resolved by the service as auto-resolved by system, and a later note', async () => {
    const events = [
      stored('AlertOpened', { alert: { ...opened, type: 'SDK_SILENT', severity: 'high' }, sessionId: null, mark: 1 }),
      stored('AlertAutoResolved', { alertId: 'a1', at: 'T2', alert: { ...opened, status: 'resolved' } }),
      stored('AlertNoted', { alertId: 'a1', by: 'api:pss_ab12', at: 'T3', note: null }),
    ];
    await expectReplayedTwice(AlertProjection, events, ALERTS, [
      { _id: 'a1', type: 'SDK_SILENT', status: 'resolved', resolved_at: 'T2', resolved_by_label: 'system', auto_resolved: true, note: null, occurrences: 1 },
    ]);
  });
});
