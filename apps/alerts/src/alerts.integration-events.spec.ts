import type { AlertResource } from '@pss/contracts';
import type { RecordedEvent } from '@pss/event-store';
import { AlertsIntegrationEvents } from './alerts.integration-events';

const alert = (change: Partial<AlertResource> = {}) =>
  ({ id: 'a1', org_id: 'org-1', store_id: 's1', type: 'SCRIPT_INTEGRITY_MISMATCH', severity: 'high', status: 'open', ...change }) as AlertResource;
const recorded = (type: string, data: Record<string, unknown>): RecordedEvent => ({
  id: '01900000-0000-7000-8000-0000000000aa',
  stream: 'alert-a1',
  revision: 0,
  position: 42,
  type,
  data,
  metadata: { orgId: 'org-1', actor: 'system' },
  createdAt: '2026-05-04T15:00:00.000Z',
});

describe('alerts integration events', () => {
  const source = new AlertsIntegrationEvents();

  it('publishes a person\'s resolve and reopen only on alerts.alert.status-changed, without a store', () => {
    const [resolved] = source.toIntegrationEvents(recorded('AlertResolved', { alertId: 'a1', by: 'api:x', at: '2026-05-04T15:00:00.000Z', note: 'ok' }));
    expect(resolved).toMatchObject({ type: 'alerts.alert.status-changed', org_id: 'org-1', store_id: null, data: { alert_id: 'a1', status: 'resolved', by: 'api:x', at: '2026-05-04T15:00:00.000Z', note: 'ok' } });
    const [reopened] = source.toIntegrationEvents(recorded('AlertReopened', { alertId: 'a1', by: 'api:x', at: '2026-05-04T16:00:00.000Z' }));
    expect(reopened.data).toEqual({ alert_id: 'a1', status: 'open', by: 'api:x', at: '2026-05-04T16:00:00.000Z', note: null });
  });

  it('publishes an opened alert on alerts.alert.created and on its own topic, each with an id of its own', () => {
    const events = source.toIntegrationEvents(recorded('AlertOpened', { alert: alert(), sessionId: null, mark: 7 }));
    expect(events.map((event) => event.type)).toEqual(['alerts.alert.created', 'alerts.integrity.changed']);
    expect(events[0]).toEqual({
      id: 'evt_019000000000700080000000000000aa',
      type: 'alerts.alert.created',
      version: 1,
      source: 'alerts',
      org_id: 'org-1',
      store_id: 's1',
      occurred_at: '2026-05-04T15:00:00.000Z',
      correlation_id: null,
      position: 42,
      data: alert(),
    });
    expect(events[1].id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(events[1].id).not.toBe(events[0].id);
    expect(source.toIntegrationEvents(recorded('AlertOpened', { alert: alert(), sessionId: null, mark: 7 }))[1].id).toBe(events[1].id);
  });

  it.each([
    ['HEADER_CHANGED', ['alerts.alert.created', 'alerts.header.changed']],
    ['SDK_SILENT', ['alerts.alert.created', 'alerts.sdk.silent']],
    ['CSP_VIOLATION', ['alerts.alert.created']],
    ['RECIPIENT_MISMATCH', ['alerts.alert.created']],
  ] as const)('publishes the opening of %s on %j', (type, topics) => {
    expect(source.toIntegrationEvents(recorded('AlertOpened', { alert: alert({ type }), sessionId: null, mark: 7 })).map((event) => event.type)).toEqual(topics);
  });

  it('publishes an SDK_SILENT alert that resolved itself, with the resolved alert', () => {
    const resolved = alert({ type: 'SDK_SILENT', status: 'resolved', auto_resolved: true });
    const [event] = source.toIntegrationEvents(recorded('AlertAutoResolved', { alertId: 'a1', at: '2026-05-04T15:00:00.000Z', alert: resolved }));
    expect(event).toMatchObject({ type: 'alerts.alert.resolved', data: resolved });
  });

  it('publishes a further occurrence on alerts.alert.occurred, for the store\'s report history', () => {
    const [occurred] = source.toIntegrationEvents(recorded('AlertOccurred', { alertId: 'a1', storeId: 's1', at: '2026-05-04T14:59:00.000Z', sessionId: 'x', newSession: true, mark: 9 }));
    expect(occurred).toMatchObject({ id: 'evt_019000000000700080000000000000aa', type: 'alerts.alert.occurred', org_id: 'org-1', store_id: 's1', occurred_at: '2026-05-04T15:00:00.000Z' });
    expect(occurred.data).toEqual({ alert_id: 'a1', at: '2026-05-04T14:59:00.000Z' });
    const [older] = source.toIntegrationEvents(recorded('AlertOccurred', { alertId: 'a1', at: '2026-05-04T14:59:00.000Z', sessionId: null, newSession: false, mark: 9 }));
    expect(older).toMatchObject({ org_id: 'org-1', store_id: null });
  });

  it.each(['AlertSnoozed', 'AlertNoted'])('publishes nothing for %s', (type) => {
    expect(source.toIntegrationEvents(recorded(type, { alertId: 'a1' }))).toEqual([]);
  });
});
