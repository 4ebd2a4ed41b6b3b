import type { AlertResource, IntegrationEvent } from '@pss/contracts';
import { NOTIFIED_TOPICS, testEvent, webhookEventOf } from './webhook-event';

const PUBLIC_URL = 'https://pss.example';
const fact = (type: string, data: object, change: Partial<IntegrationEvent> = {}): IntegrationEvent => ({
  id: 'evt_0190000000007000800000000000000a',
  type,
  version: 1,
  source: type.split('.')[0],
  org_id: 'org-1',
  store_id: 'store-1',
  occurred_at: '2026-05-04T15:00:00.000Z',
  correlation_id: null,
  position: 7,
  data: data as Record<string, unknown>,
  ...change,
});
const alert = (change: Partial<AlertResource> = {}): AlertResource => ({
  id: 'alert-1',
  org_id: 'org-1',
  store_id: 'store-1',
  type: 'HEADER_CHANGED',
  change_type: 'changed',
  severity: 'medium',
  status: 'open',
  source: 'content-security-policy',
  page: '/checkout',
  details: { header: 'content-security-policy', change_type: 'changed' },
  fingerprint: 'f'.repeat(64),
  occurrences: 1,
  sessions_count: 1,
  first_seen_at: '2026-05-04T15:00:00.000Z',
  last_seen_at: '2026-05-04T15:00:00.000Z',
  resolved_at: null,
  resolved_by_label: null,
  note: 'internal note',
  snoozed_until: null,
  auto_resolved: false,
  created_at: '2026-05-04T15:00:00.000Z',
  ...change,
});
const detected = {
  script_id: 'script-1',
  store_id: 'store-1',
  src: 'https://cdn.widgets.io/w.js',
  inline: false,
  host: 'cdn.widgets.io',
  type: 'unknown',
  category: null,
  vendor_id: null,
  status: 'needs_review',
  hash: 'sha384-abc',
  page_url: 'https://loja.example/checkout',
  session_id: 'shopper-session',
  detected_at: '2026-05-04T15:00:00.000Z',
};

describe('webhook events from integration events', () => {
  it('listens to the five alert topics, script detections, policy decisions and ready reports', () => {
    expect(NOTIFIED_TOPICS.sort()).toEqual(
      [
        'alerts.alert.created',
        'alerts.alert.resolved',
        'alerts.integrity.changed',
        'alerts.header.changed',
        'alerts.sdk.silent',
        'inventory.script.detected',
        'inventory.policy.applied',
        'reports.report.ready',
      ].sort(),
    );
  });

  it.each([
    ['alerts.alert.created', 'alert.created', 'critical', { severity: 'critical' }],
    ['alerts.alert.created', 'alert.created', 'medium', {}],
    ['alerts.alert.resolved', 'alert.resolved', 'medium', { type: 'SDK_SILENT' }],
    ['alerts.integrity.changed', 'integrity.changed', 'high', { type: 'SCRIPT_INTEGRITY_MISMATCH', severity: 'high' }],
    ['alerts.header.changed', 'header.changed', 'medium', {}],
    ['alerts.sdk.silent', 'sdk.silent', 'medium', { type: 'SDK_SILENT' }],
  ] as const)('turns %s into %s of severity %s', (topic, type, severity, change) => {
    const event = webhookEventOf(fact(topic, alert(change as Partial<AlertResource>)), PUBLIC_URL)!;
    expect(event).toMatchObject({ severity, orgId: 'org-1', storeId: 'store-1' });
    expect(event.envelope).toMatchObject({ id: 'evt_0190000000007000800000000000000a', type, created_at: '2026-05-04T15:00:00.000Z' });
  });

  it("gives an alert's curated fields and a link to it, not the organization, fingerprint or note", () => {
    const { data } = webhookEventOf(fact('alerts.alert.created', alert()), PUBLIC_URL)!.envelope;
    expect(data).toEqual({
      alert_id: 'alert-1',
      store_id: 'store-1',
      type: 'HEADER_CHANGED',
      change_type: 'changed',
      severity: 'medium',
      status: 'open',
      source: 'content-security-policy',
      page: '/checkout',
      details: { header: 'content-security-policy', change_type: 'changed' },
      occurrences: 1,
      first_seen_at: '2026-05-04T15:00:00.000Z',
      last_seen_at: '2026-05-04T15:00:00.000Z',
      resolved_at: null,
      auto_resolved: false,
      url: 'https://pss.example/api/v1/alerts/alert-1',
    });
  });

  it('tells of a new script only when it awaits review, without the shopper session', () => {
    const event = webhookEventOf(fact('inventory.script.detected', detected), PUBLIC_URL)!;
    expect(event).toMatchObject({ severity: 'info', envelope: { type: 'script.detected' } });
    const { session_id: _session, ...expected } = detected;
    expect(event.envelope.data).toEqual({ ...expected, url: 'https://pss.example/api/v1/scripts/script-1' });
    expect(webhookEventOf(fact('inventory.script.detected', { ...detected, status: 'malicious' }), PUBLIC_URL)).toBeUndefined();
  });

  it('tells of a policy decision and a ready report', () => {
    const applied = { policy_id: 'p1', policy_version: 2, script_id: 'script-1', store_id: 'store-1', action: 'block', justification: 'Threat list' };
    expect(webhookEventOf(fact('inventory.policy.applied', applied), PUBLIC_URL)).toMatchObject({
      severity: 'info',
      envelope: { type: 'policy.applied', data: { ...applied, url: 'https://pss.example/api/v1/scripts/script-1' } },
    });
    const report = { report_id: 'r1', store_id: 'store-1', kind: 'weekly', period_start: '2026-04-27T00:00:00.000Z', period_end: '2026-05-04T00:00:00.000Z', sha256: 'x' };
    expect(webhookEventOf(fact('reports.report.ready', report), PUBLIC_URL)!.envelope).toMatchObject({
      type: 'report.ready',
      data: { report_id: 'r1', store_id: 'store-1', kind: 'weekly', period_start: report.period_start, period_end: report.period_end, url: 'https://pss.example/api/v1/reports/pci/snapshots/r1' },
    });
  });

  it('ignores other topics (script.authorized and script.blocked included) and facts without an organization', () => {
    expect(webhookEventOf(fact('inventory.script.authorized', { script_id: 's' }), PUBLIC_URL)).toBeUndefined();
    expect(webhookEventOf(fact('inventory.script.blocked', { script_id: 's' }), PUBLIC_URL)).toBeUndefined();
    expect(webhookEventOf(fact('alerts.alert.created', alert(), { org_id: null }), PUBLIC_URL)).toBeUndefined();
  });

  it('makes a test event for a channel', () => {
    expect(testEvent('c1', 'org-1', 'evt_1', new Date('2026-05-04T15:00:00.000Z'), PUBLIC_URL)).toEqual({
      severity: 'info',
      orgId: 'org-1',
      storeId: null,
      envelope: {
        id: 'evt_1',
        type: 'test',
        created_at: '2026-05-04T15:00:00.000Z',
        data: { channel_id: 'c1', message: 'This is a test event from Payment Page Script Security.', url: 'https://pss.example/api/v1/webhooks/c1' },
      },
    });
  });
});
