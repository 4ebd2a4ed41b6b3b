import { isInventoryFact, type AlertType, type IntegrationEvent } from '@pss/contracts';
import type { Occurrence } from '../alert/alert.decider';
import { fingerprintOf } from '../alert/fingerprint';

/** The inventory topics an alert can come from (docs/alerts.md). */
export const DETECTION_TOPICS = [
  'inventory.script.hash-changed',
  'inventory.headers.changed',
  'inventory.csp.violation',
  'inventory.script.detected',
  'inventory.sensitive-field.accessed',
  'inventory.iframe.unexpected',
  'inventory.recipient.mismatched',
];

interface Raised {
  type: AlertType;
  subject: string[];
  source: string;
  pageUrl: string;
  details: Record<string, unknown>;
  sessionId?: string;
  changeType?: string;
  page?: string;
}

/** What an inventory fact means for alerts: none, one, or (a headers change) one per header. */
export function detectAlerts(event: IntegrationEvent): Occurrence[] {
  const { org_id: orgId, store_id: storeId } = event;
  if (!orgId || !storeId) return [];
  return raisedBy(event).map((raised) => ({
    orgId,
    storeId,
    type: raised.type,
    fingerprint: fingerprintOf(raised.type, storeId, ...raised.subject),
    changeType: raised.changeType ?? null,
    source: raised.source,
    page: raised.page ?? pathOf(raised.pageUrl),
    details: { ...raised.details, page_url: raised.pageUrl },
    sessionId: raised.sessionId ?? null,
    at: event.occurred_at,
    mark: event.position,
  }));
}

function raisedBy(event: IntegrationEvent): Raised[] {
  if (!isInventoryFact(event)) return [];
  switch (event.type) {
    case 'inventory.script.hash-changed': {
      const data = event.data;
      if (!data.unauthorized_change) return [];
      const { script_id, src, previous_hash, new_hash, authorized_hash } = data;
      return [{ type: 'SCRIPT_INTEGRITY_MISMATCH', subject: [script_id], source: src, pageUrl: data.page_url, sessionId: data.session_id, details: { script_id, src, previous_hash, new_hash, authorized_hash } }];
    }
    case 'inventory.headers.changed': {
      const { page, page_url, changes } = event.data;
      return changes.map(({ name, change_type, old_value, new_value }) => ({
        type: 'HEADER_CHANGED',
        subject: [name],
        source: name,
        pageUrl: page_url,
        page,
        changeType: change_type,
        details: { header: name, change_type, old_value, new_value, page },
      }));
    }
    case 'inventory.csp.violation': {
      const { directive, blocked_uri, source_file, page_url, session_id } = event.data;
      return [{ type: 'CSP_VIOLATION', subject: [directive, blocked_uri], source: blocked_uri, pageUrl: page_url, sessionId: session_id, details: { directive, blocked_uri, source_file } }];
    }
    case 'inventory.script.detected': {
      const data = event.data;
      if (data.status !== 'malicious') return [];
      const { script_id, src, host, hash } = data;
      return [{ type: 'MALICIOUS_SCRIPT', subject: [script_id], source: src, pageUrl: data.page_url, sessionId: data.session_id, details: { script_id, src, host, hash } }];
    }
    case 'inventory.sensitive-field.accessed': {
      const data = event.data;
      if (data.script_authorized) return [];
      const { script_id, src, field } = data;
      return [{ type: 'SENSITIVE_FIELD_ACCESS', subject: [script_id], source: src, pageUrl: data.page_url, sessionId: data.session_id, details: { script_id, src, field } }];
    }
    case 'inventory.iframe.unexpected': {
      const { origin, host, expected, page_url, session_id } = event.data;
      return [{ type: 'UNEXPECTED_IFRAME', subject: [host], source: origin, pageUrl: page_url, sessionId: session_id, details: { origin, host, expected } }];
    }
    case 'inventory.recipient.mismatched': {
      // Only hashes cross the wire: the key shown on the page never left it, and pinned keys are stored hashed.
      const { method, key_hash, pinned, page_url, session_id } = event.data;
      return [{ type: 'RECIPIENT_MISMATCH', subject: [method, key_hash], source: method, pageUrl: page_url, sessionId: session_id, details: { method, key_hash, pinned } }];
    }
    default:
      return [];
  }
}

function pathOf(pageUrl: string): string | null {
  try {
    return new URL(pageUrl).pathname;
  } catch {
    return null;
  }
}
