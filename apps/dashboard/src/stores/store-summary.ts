import { ALERT_SEVERITIES, type AlertSeverity } from '@pss/contracts';
import type { SdkStatus } from '@pss/store-reads';

/** The script statuses that wait for a person's decision (the review inbox's). */
export const AWAITING_DECISION = ['malicious', 'suspicious', 'needs_review'] as const;
export type AwaitingDecision = (typeof AWAITING_DECISION)[number];

/** What needs action in a store or an organization: scripts by status awaiting a decision, open alerts by severity. */
export interface NeedsAction {
  decisions: Record<AwaitingDecision, number>;
  alerts: Record<AlertSeverity, number>;
}

/** A store on the home page. */
export interface StoreSummary extends NeedsAction {
  store: { id: string; name: string; domain: string; timezone: string; status: string };
  sdk: SdkStatus;
  lastReport: { id: string; created_at: string } | null;
  /** When the store's active schedule makes its next report; null without one. */
  nextReport: string | null;
}

/** A partner's child organization on the home page. */
export interface OrganizationSummary extends NeedsAction {
  organization: { id: string; name: string };
  stores: number;
}

/**
 * What comes first: the most urgent thing one has that the other has less of, in the order a security team
 * works (a critical alert, a malicious script, a high alert, a suspicious script, then the rest), the SDK of a
 * store that fell silent before any merely medium or low alert.
 */
function urgency(item: NeedsAction & { sdk?: SdkStatus }): number[] {
  const { alerts, decisions } = item;
  return [alerts.critical, decisions.malicious, alerts.high, decisions.suspicious, item.sdk?.silent ? 1 : 0, decisions.needs_review, ...ALERT_SEVERITIES.slice(2).map((severity) => alerts[severity])];
}

/** Most in need of action first; those needing nothing by name. */
export function byNeed<T extends NeedsAction & { sdk?: SdkStatus }>(items: T[], nameOf: (item: T) => string): T[] {
  const keyed = items.map((item) => ({ item, key: urgency(item) }));
  keyed.sort((a, b) => {
    const differing = a.key.findIndex((count, index) => count !== b.key[index]);
    return differing >= 0 ? b.key[differing] - a.key[differing] : nameOf(a.item).localeCompare(nameOf(b.item));
  });
  return keyed.map(({ item }) => item);
}

/** Whether anything waits on the store or organization. */
export const needsAction = (item: NeedsAction): boolean => Object.values(item.decisions).some(Boolean) || Object.values(item.alerts).some(Boolean);
