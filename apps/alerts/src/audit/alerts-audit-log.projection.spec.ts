import { auditLogCollection } from '@pss/contracts';
import type { RecordedEvent } from '@pss/event-store';
import { recorded, replayedTwice } from '@pss/testkit';
import { AlertsAuditLogProjection } from './alerts-audit-log.projection';

const by = (actor: string, event: RecordedEvent): RecordedEvent => ({ ...event, metadata: { actor, orgId: 'o1' } });

describe('AlertsAuditLogProjection replayed twice', () => {
  it('records who changed an alert, labelled by its type, but not its opening or recurrences', async () => {
    const events = [
      by('system', recorded('alert-a1', 'AlertOpened', { alert: { id: 'a1', type: 'NEW_SCRIPT' }, sessionId: null, mark: 1 })),
      by('system', recorded('alert-a1', 'AlertOccurred', { alertId: 'a1', at: 'T2', sessionId: null, newSession: false, mark: 2 })),
      by('api:pss_tok_ab', recorded('alert-a1', 'AlertResolved', { alertId: 'a1', by: 'api:pss_tok_ab', at: 'T3', note: 'our own tag manager' })),
      by('user:owner@shop.example', recorded('alert-a1', 'AlertReopened', { alertId: 'a1', by: 'user:owner@shop.example', at: 'T4' })),
    ];
    const entries = (await replayedTwice(AlertsAuditLogProjection, events))[auditLogCollection('alerts')];

    expect(entries.map(({ actor, action, target, details }) => ({ actor, action, target, details }))).toEqual([
      { actor: 'api:pss_tok_ab', action: 'alert.resolved', target: { type: 'alert', id: 'a1', label: 'NEW_SCRIPT' }, details: { note: 'our own tag manager' } },
      { actor: 'user:owner@shop.example', action: 'alert.reopened', target: { type: 'alert', id: 'a1', label: 'NEW_SCRIPT' }, details: { note: null } },
    ]);
  });
});
