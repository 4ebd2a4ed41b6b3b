import { ALERT_TOPICS, type AlertResourceFact, type AlertSeverity, type AlertType } from '@pss/contracts';

/**
 * Each alert type's severity, and the topic its opening is published on besides alerts.alert.created (the
 * spec's integrity.changed, header.changed and sdk.silent). docs/alerts.md says what raises each.
 */
export const ALERT_CATALOGUE: Record<AlertType, { severity: AlertSeverity; topic?: AlertResourceFact['type'] }> = {
  SCRIPT_INTEGRITY_MISMATCH: { severity: 'high', topic: ALERT_TOPICS.integrityChanged },
  HEADER_CHANGED: { severity: 'medium', topic: ALERT_TOPICS.headerChanged },
  CSP_VIOLATION: { severity: 'medium' },
  MALICIOUS_SCRIPT: { severity: 'critical' },
  SENSITIVE_FIELD_ACCESS: { severity: 'high' },
  UNEXPECTED_IFRAME: { severity: 'high' },
  RECIPIENT_MISMATCH: { severity: 'critical' },
  SDK_SILENT: { severity: 'medium', topic: ALERT_TOPICS.sdkSilent },
  // Critical when its page view had a card-field read by a script not authorized (detect-alerts.ts).
  NEW_CONNECTION: { severity: 'high' },
};
