import {
  ALERT_TOPICS,
  INVENTORY_TOPICS,
  isAlertResourceFact,
  isInventoryFact,
  isReportsFact,
  REPORT_TOPICS,
  type AlertResource,
  type AlertSeverity,
  type IntegrationEvent,
  type WebhookEventType,
} from '@pss/contracts';

/**
 * What a channel receives (spec, Delivery): `id` is the integration event's `evt_…` id, so it is the same for a
 * redelivered event and across retries; `data` is curated per type (docs/webhooks.md).
 */
export interface Envelope {
  id: string;
  type: WebhookEventType;
  created_at: string;
  data: Record<string, unknown>;
}

/** An event to deliver, with what channels are filtered by. */
export interface WebhookEvent {
  envelope: Envelope;
  severity: AlertSeverity;
  orgId: string;
  storeId: string | null;
}

/** The five alert topics and their webhook events; alert.created carries the alert's own severity (spec, Events). */
const ALERT_EVENTS: Record<string, { type: WebhookEventType; severity?: AlertSeverity }> = {
  [ALERT_TOPICS.created]: { type: 'alert.created' },
  [ALERT_TOPICS.resolved]: { type: 'alert.resolved', severity: 'medium' },
  [ALERT_TOPICS.integrityChanged]: { type: 'integrity.changed', severity: 'high' },
  [ALERT_TOPICS.headerChanged]: { type: 'header.changed', severity: 'medium' },
  [ALERT_TOPICS.sdkSilent]: { type: 'sdk.silent', severity: 'medium' },
};

/** The integration topics that can become webhook events (docs/events.md). */
export const NOTIFIED_TOPICS = [...Object.keys(ALERT_EVENTS), INVENTORY_TOPICS.scriptDetected, INVENTORY_TOPICS.policyApplied, REPORT_TOPICS.ready];

/**
 * Where a person opens what an event is about. There is no dashboard yet, so the link is the API resource under
 * PUBLIC_URL (opened with a token of the organization); the dashboard's pages take over the same ids later.
 */
export const RESOURCE_PATHS = {
  alerts: '/api/v1/alerts',
  scripts: '/api/v1/scripts',
  reports: '/api/v1/reports/pci/snapshots',
  webhooks: '/api/v1/webhooks',
} as const;

export const linkTo = (publicUrl: string, resource: keyof typeof RESOURCE_PATHS, id: string): string =>
  `${publicUrl}${RESOURCE_PATHS[resource]}/${encodeURIComponent(id)}`;

/** The webhook event an integration event stands for, or none (another topic, no tenant, a script not awaiting review). */
export function webhookEventOf(event: IntegrationEvent, publicUrl: string): WebhookEvent | undefined {
  if (!event.org_id) return undefined;
  const described = describe(event, publicUrl);
  if (!described) return undefined;
  const { type, severity, data } = described;
  return { envelope: { id: event.id, type, created_at: event.occurred_at, data }, severity, orgId: event.org_id, storeId: event.store_id };
}

/** POST /webhooks/{id}/test: a fresh event each time. */
export function testEvent(channelId: string, orgId: string, eventId: string, at: Date, publicUrl: string): WebhookEvent {
  const data = { channel_id: channelId, message: 'This is a test event from Payment Page Script Security.', url: linkTo(publicUrl, 'webhooks', channelId) };
  return { envelope: { id: eventId, type: 'test', created_at: at.toISOString(), data }, severity: 'info', orgId, storeId: null };
}

interface Described {
  type: WebhookEventType;
  severity: AlertSeverity;
  data: Record<string, unknown>;
}

function describe(event: IntegrationEvent, publicUrl: string): Described | undefined {
  const alertEvent = ALERT_EVENTS[event.type];
  if (alertEvent && isAlertResourceFact(event)) {
    const alert = event.data;
    return { type: alertEvent.type, severity: alertEvent.severity ?? alert.severity, data: alertData(alert, publicUrl) };
  }
  if (isInventoryFact(event)) {
    switch (event.type) {
      case INVENTORY_TOPICS.scriptDetected: {
        // Only a script that awaits review is news; a malicious one is an alert (and blocked by policy).
        if (event.data.status !== 'needs_review') return undefined;
        const { script_id, store_id, src, inline, host, type, category, vendor_id, status, hash, page_url, detected_at } = event.data;
        const url = linkTo(publicUrl, 'scripts', script_id);
        return { type: 'script.detected', severity: 'info', data: { script_id, store_id, src, inline, host, type, category, vendor_id, status, hash, page_url, detected_at, url } };
      }
      case INVENTORY_TOPICS.policyApplied: {
        const { policy_id, policy_version, script_id, store_id, action, justification } = event.data;
        const url = linkTo(publicUrl, 'scripts', script_id);
        return { type: 'policy.applied', severity: 'info', data: { policy_id, policy_version, script_id, store_id, action, justification, url } };
      }
      default:
        return undefined;
    }
  }
  if (isReportsFact(event) && event.type === REPORT_TOPICS.ready) {
    const { report_id, store_id, kind, period_start, period_end, locale, sha256, links } = event.data;
    const url = linkTo(publicUrl, 'reports', report_id);
    return { type: 'report.ready', severity: 'info', data: { report_id, store_id, kind, period_start, period_end, locale, sha256, url, links: underPublicUrl(publicUrl, links) } };
  }
  return undefined;
}

/** reports.report.ready's links (JSON, PDF, each CSV table) are API paths: made absolute under PUBLIC_URL. */
function underPublicUrl(publicUrl: string, links: unknown): unknown {
  if (typeof links === 'string') return `${publicUrl}${links}`;
  if (links && typeof links === 'object') return Object.fromEntries(Object.entries(links).map(([name, link]) => [name, underPublicUrl(publicUrl, link)]));
  return links;
}

/** The alert as a receiver needs it: no organization id, fingerprint, note or snooze (the dashboard's business). */
const alertData = (alert: AlertResource, publicUrl: string): Record<string, unknown> => ({
  alert_id: alert.id,
  store_id: alert.store_id,
  type: alert.type,
  change_type: alert.change_type,
  severity: alert.severity,
  status: alert.status,
  source: alert.source,
  page: alert.page,
  details: alert.details,
  occurrences: alert.occurrences,
  first_seen_at: alert.first_seen_at,
  last_seen_at: alert.last_seen_at,
  resolved_at: alert.resolved_at,
  auto_resolved: alert.auto_resolved,
  url: linkTo(publicUrl, 'alerts', alert.id),
});
