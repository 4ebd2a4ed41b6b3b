import type { AlertType } from '@pss/contracts';
import type { Envelope } from './webhook-event';

/** The fixed English text Slack, Teams and e-mail channels get: a title, a line, and the link to open it. */
export interface Summary {
  title: string;
  text: string;
  url: string;
}

type Data = Record<string, unknown>;

export function summaryOf({ type, data }: Envelope): Summary {
  const url = String(data.url);
  const line = (...sentences: Array<string | null>): string =>
    [...sentences, data.store_id ? `Store ${String(data.store_id)}.` : null].filter(Boolean).join(' ');
  const details = (data.details ?? {}) as Data;
  switch (type) {
    case 'alert.created':
      return { title: `New ${String(data.severity)} alert: ${readable(data.type)}`, text: line(where(data)), url };
    case 'alert.resolved':
      return { title: `Alert resolved: ${readable(data.type)}`, text: line('It resolved itself: the SDK reports events again.'), url };
    case 'integrity.changed':
      return { title: `Script content changed: ${String(data.source)}`, text: line('An authorized script no longer has its authorized content.'), url };
    case 'header.changed':
      return { title: `Security header ${String(details.change_type)}: ${String(details.header)}`, text: line(where(data)), url };
    case 'sdk.silent':
      return { title: 'SDK silent for 24 hours', text: line(`No SDK events since ${String(details.last_event_at)}.`), url };
    case 'script.detected':
      return { title: `New script awaits review: ${String(data.src)}`, text: line(`Seen on ${String(data.page_url)}.`), url };
    case 'policy.applied':
      return {
        title: `Policy applied: ${String(data.action)}`,
        text: line(`Policy ${String(data.policy_id)} (version ${String(data.policy_version)}) decided on script ${String(data.script_id)}.`),
        url,
      };
    case 'report.ready':
      return { title: `PCI report ready (${String(data.kind)})`, text: line(`Period ${String(data.period_start)} to ${String(data.period_end)}.`), url };
    case 'test':
      return { title: 'Test event', text: String(data.message), url };
  }
}

const ALERT_LABELS: Record<AlertType, string> = {
  SCRIPT_INTEGRITY_MISMATCH: 'Script integrity mismatch',
  HEADER_CHANGED: 'Security header changed',
  CSP_VIOLATION: 'CSP violation',
  MALICIOUS_SCRIPT: 'Malicious script',
  SENSITIVE_FIELD_ACCESS: 'Sensitive field access',
  UNEXPECTED_IFRAME: 'Unexpected iframe',
  RECIPIENT_MISMATCH: 'Payment recipient mismatch',
  SDK_SILENT: 'SDK silent',
  NEW_CONNECTION: 'New connection from the payment page',
};

/** An alert type as people read it; a type added later than this list shows as it is. */
const readable = (alertType: unknown): string => ALERT_LABELS[alertType as AlertType] ?? String(alertType);

/** `https://evil.example/x.js on /checkout.`, or nothing when the alert names neither. */
function where(alert: Data): string | null {
  const parts = [alert.source, alert.page ? `on ${String(alert.page)}` : null].filter(Boolean);
  return parts.length ? `${parts.join(' ')}.` : null;
}
