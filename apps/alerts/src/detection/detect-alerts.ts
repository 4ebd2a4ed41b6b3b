import { INVENTORY_TOPICS as T, isInventoryFact, type AlertSeverity, type AlertType, type FieldReadingScript, type IntegrationEvent, type SensitiveFieldAccessedFact } from '@pss/contracts';
import type { Occurrence } from '../alert/alert.decider';
import { fingerprintOf } from '../alert/fingerprint';

/** The inventory topics an alert can come from (docs/alerts.md). */
export const DETECTION_TOPICS = [
  T.scriptHashChanged,
  T.scriptIntegrityRefused,
  T.headersChanged,
  T.cspViolation,
  T.scriptDetected,
  T.sensitiveFieldAccessed,
  T.iframeUnexpected,
  T.recipientMismatched,
  T.connectionDetected,
];

const SRI_REFUSED_REASON = "The browser refused to run this script: its content does not match the page's integrity attribute";

interface Raised {
  type: AlertType;
  subject: string[];
  source: string;
  pageUrl: string;
  details: Record<string, unknown>;
  sessionId?: string;
  changeType?: string;
  page?: string;
  severity?: AlertSeverity;
}

/** What an inventory fact means for alerts: none, one, or (a headers change) one per header. */
export function detectAlerts(event: IntegrationEvent<unknown>): Occurrence[] {
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
    ...(raised.severity ? { severity: raised.severity } : {}),
    at: event.occurred_at,
    mark: event.position,
  }));
}

function raisedBy(event: IntegrationEvent<unknown>): Raised[] {
  if (!isInventoryFact(event)) return [];
  switch (event.type) {
    case T.scriptHashChanged: {
      const data = event.data;
      if (!data.unauthorized_change) return [];
      const { script_id, src, previous_hash, new_hash, authorized_hash } = data;
      return [{ type: 'SCRIPT_INTEGRITY_MISMATCH', subject: [script_id], source: src, pageUrl: data.page_url, sessionId: data.session_id, details: { script_id, src, previous_hash, new_hash, authorized_hash } }];
    }
    case T.scriptIntegrityRefused: {
      // Its own alert (subject), beside an unauthorized change of the same script: the page no longer runs it.
      const { script_id, src, hash, refused_integrity, page_url, session_id } = event.data;
      const details = { script_id, src, new_hash: hash, refused_integrity, sri_refused: true, reason: SRI_REFUSED_REASON };
      return [{ type: 'SCRIPT_INTEGRITY_MISMATCH', subject: [script_id, 'sri-refused'], source: src, pageUrl: page_url, sessionId: session_id, details }];
    }
    case T.headersChanged: {
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
    case T.cspViolation: {
      const { directive, blocked_uri, source_file, page_url, session_id } = event.data;
      return [{ type: 'CSP_VIOLATION', subject: [directive, blocked_uri], source: blocked_uri, pageUrl: page_url, sessionId: session_id, details: { directive, blocked_uri, source_file } }];
    }
    case T.scriptDetected: {
      const data = event.data;
      if (data.status !== 'malicious') return [];
      const { script_id, src, host, hash } = data;
      return [{ type: 'MALICIOUS_SCRIPT', subject: [script_id], source: src, pageUrl: data.page_url, sessionId: data.session_id, details: { script_id, src, host, hash } }];
    }
    case T.sensitiveFieldAccessed: {
      const data = event.data;
      const suspect = suspectOf(data);
      if (!suspect) return [];
      const { script_id, src } = suspect.script;
      const details = { script_id, src, field: data.field, ...(suspect.through.length ? { read_via: suspect.through.map((script) => script.src) } : {}) };
      return [{ type: 'SENSITIVE_FIELD_ACCESS', subject: [script_id], source: src, pageUrl: data.page_url, sessionId: data.session_id, details }];
    }
    case T.iframeUnexpected: {
      const { origin, host, expected, page_url, session_id } = event.data;
      return [{ type: 'UNEXPECTED_IFRAME', subject: [host], source: origin, pageUrl: page_url, sessionId: session_id, details: { origin, host, expected } }];
    }
    case T.recipientMismatched: {
      // Only hashes cross the wire: the key shown on the page never left it, and pinned keys are stored hashed.
      const { method, key_hash, pinned, page_url, session_id } = event.data;
      return [{ type: 'RECIPIENT_MISMATCH', subject: [method, key_hash], source: method, pageUrl: page_url, sessionId: session_id, details: { method, key_hash, pinned } }];
    }
    case T.connectionDetected: {
      const { connection_id, origin, via, initiator, sensitive_read, page_url, session_id } = event.data;
      const details = { connection_id, origin, via, initiator: initiator?.src ?? null, initiator_script_id: initiator?.script_id ?? null, sensitive_read };
      // Card data read by a script the shop never authorized, then sent where the page never sent anything: a skimmer at work.
      const severity = sensitive_read ? 'critical' : undefined;
      return [{ type: 'NEW_CONNECTION', subject: [origin], source: origin, pageUrl: page_url, sessionId: session_id, details, severity }];
    }
    default:
      return [];
  }
}

/**
 * Whom a sensitive-field read is held against: the outermost script on its stack that is not authorized, for a
 * skimmer calls into the libraries it reads through (jQuery's `.val()`), not the other way round; with the
 * scripts between it and the field (`through`, innermost first). None when every script on the stack is authorized.
 */
function suspectOf(read: SensitiveFieldAccessedFact): { script: FieldReadingScript; through: FieldReadingScript[] } | undefined {
  const chain = [read, ...(read.callers ?? [])];
  for (let at = chain.length - 1; at >= 0; at -= 1) {
    if (!chain[at].script_authorized) return { script: chain[at], through: chain.slice(0, at) };
  }
  return undefined;
}

function pathOf(pageUrl: string): string | null {
  try {
    return new URL(pageUrl).pathname;
  } catch {
    return null;
  }
}
