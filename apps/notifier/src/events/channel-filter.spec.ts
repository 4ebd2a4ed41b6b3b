import type { AlertSeverity, WebhookEventType } from '@pss/contracts';
import { wants, type ChannelFilters } from './channel-filter';
import type { WebhookEvent } from './webhook-event';

const channel = (change: Partial<ChannelFilters> = {}): ChannelFilters => ({
  type: 'webhook',
  store_id: null,
  events: null,
  min_severity: 'high',
  active: true,
  created_at: '2026-05-04T14:00:00.000Z',
  ...change,
});
const event = (type: WebhookEventType, severity: AlertSeverity = 'info', storeId: string | null = 'store-1'): WebhookEvent => ({
  envelope: { id: 'evt_1', type, created_at: '2026-05-04T15:00:00.000Z', data: {} },
  severity,
  orgId: 'org-1',
  storeId,
});

describe('which channels want an event', () => {
  it('filters alert events by min_severity (default high), and no other event', () => {
    const byDefault = channel();
    expect(wants(byDefault, event('integrity.changed', 'high'))).toBe(true);
    expect(wants(byDefault, event('alert.created', 'critical'))).toBe(true);
    expect(wants(byDefault, event('header.changed', 'medium'))).toBe(false);
    expect(wants(byDefault, event('alert.created', 'medium'))).toBe(false);
    expect(wants(byDefault, event('alert.resolved', 'medium'))).toBe(false);
    expect(wants(byDefault, event('sdk.silent', 'medium'))).toBe(false);
    for (const type of ['script.detected', 'policy.applied', 'report.ready'] as const) expect(wants(byDefault, event(type, 'info'))).toBe(true);
    expect(wants(channel({ min_severity: 'medium' }), event('header.changed', 'medium'))).toBe(true);
    expect(wants(channel({ min_severity: 'info' }), event('alert.created', 'low'))).toBe(true);
    expect(wants(channel({ min_severity: 'critical' }), event('alert.created', 'high'))).toBe(false);
  });

  it('keeps to the listed events; none listed (null or empty) is all', () => {
    expect(wants(channel({ events: ['script.detected'] }), event('script.detected'))).toBe(true);
    expect(wants(channel({ events: ['script.detected'] }), event('integrity.changed', 'high'))).toBe(false);
    expect(wants(channel({ events: [] }), event('integrity.changed', 'high'))).toBe(true);
    // Accepted in `events`, never sent: no such event is ever made, so a channel listing only them gets none.
    const unsent = channel({ events: ['script.authorized', 'script.blocked'] });
    for (const type of ['alert.created', 'script.detected', 'policy.applied', 'report.ready'] as const) expect(wants(unsent, event(type, 'critical'))).toBe(false);
  });

  it("keeps a store's channel to its store; an organization-wide one gets every store's", () => {
    expect(wants(channel({ store_id: 'store-1' }), event('script.detected'))).toBe(true);
    expect(wants(channel({ store_id: 'store-2' }), event('script.detected'))).toBe(false);
    expect(wants(channel({ store_id: 'store-2' }), event('report.ready', 'info', null))).toBe(false);
    expect(wants(channel(), event('script.detected', 'info', 'store-9'))).toBe(true);
  });

  it('sends nothing to an inactive channel, nor what happened before its creation, but a test, which ignores every filter', () => {
    expect(wants(channel({ active: false }), event('alert.created', 'critical'))).toBe(false);
    expect(wants(channel({ created_at: '2026-05-04T15:00:00.001Z' }), event('alert.created', 'critical'))).toBe(false);
    const strict = channel({ active: false, events: ['report.ready'], min_severity: 'critical', store_id: 'store-2', created_at: '2026-05-05T00:00:00.000Z' });
    expect(wants(strict, event('test', 'info', null))).toBe(true);
  });

  it('gives e-mail channels alert.created, report.ready and test only', () => {
    const email = channel({ type: 'email', min_severity: 'info' });
    const expected: Record<WebhookEventType, boolean> = {
      'alert.created': true,
      'report.ready': true,
      test: true,
      'alert.resolved': false,
      'integrity.changed': false,
      'header.changed': false,
      'sdk.silent': false,
      'script.detected': false,
      'policy.applied': false,
    };
    for (const [type, wanted] of Object.entries(expected)) expect([type, wants(email, event(type as WebhookEventType, 'critical'))]).toEqual([type, wanted]);
    expect(wants(channel({ type: 'email' }), event('alert.created', 'medium'))).toBe(false);
  });
});
