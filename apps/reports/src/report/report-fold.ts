import {
  INVENTORY_TOPICS as T,
  ALERT_OCCURRED,
  ALERT_STATUS_CHANGED,
  ALERT_TOPICS,
  integrityOf,
  type AlertFact,
  type AlertResourceFact,
  type ConnectionSeenFact,
  type FieldReadingScript,
  type HeadersBaselinedFact,
  type HeadersChangedFact,
  type InventoryFact,
  type ScriptDecisionFact,
  type ScriptDetectedFact,
  type ScriptHashChangedFact,
  type SensitiveFieldAccessedFact,
  type StoreCreatedFact,
  type StoreUpdatedFact,
} from '@pss/contracts';
import type { ChangeEvents, DataAccess, ReportAlert, ReportConnection, ReportHeader, ReportPolicy, ReportScript } from '@pss/report-files';

/** What a report is folded from: inventory's and alerts' integration events, as reports recorded them. */
export type ReportFact = InventoryFact | AlertFact;

const isAlertFact = (fact: ReportFact): fact is AlertFact => fact.source === 'alerts' || fact.type.startsWith('alerts.');

export interface ReportPeriod {
  /** Milliseconds since the epoch, start inclusive, end inclusive (facts at exactly period_end count). */
  start: number;
  end: number;
}

interface StoreState {
  id: string;
  org_id: string;
  name: string;
  domain: string;
  timezone: string;
  status: string;
  payment_pages: string[];
  created_at: string;
}

type ScriptState = ReportScript & { expired: boolean };

interface HeaderState {
  page: string;
  baselineAt: string | null;
  values: Map<string, ReportHeader>;
}

/** What one week saw, by the facts (SDK batches and sessions come from the hourly counts). */
export interface WeekFacts {
  pages: Set<string>;
  headerChecks: number;
}

/** The kinds of change and tamper event each SDK signal is counted as. */
const SIGNAL_KINDS: Record<string, keyof ChangeEvents> = {
  [T.cspViolation]: 'csp_violations',
  [T.iframeUnexpected]: 'unexpected_iframes',
  [T.recipientMismatched]: 'recipient_mismatches',
};

const DAY_MS = 24 * 60 * 60 * 1000;
export const WEEK_MS = 7 * DAY_MS;
/** Monday 00:00 UTC of the week holding `ms` (1970-01-01 was a Thursday). */
export const weekStartOf = (ms: number): number => ms - ((ms - 4 * DAY_MS) % WEEK_MS + WEEK_MS) % WEEK_MS;

/**
 * Folds a store's facts, oldest first, into the state the report shows as of `period.end`: facts after it are
 * ignored, facts before the period set the state (a script authorized last year is still authorized), facts
 * within it are also counted as the period's events. Pure and synchronous; the caller feeds it in slices.
 */
export class ReportFold {
  store: StoreState | null = null;
  readonly scripts = new Map<string, ScriptState>();
  readonly headers = new Map<string, HeaderState>();
  readonly alerts = new Map<string, ReportAlert & { opened_in_period: boolean }>();
  readonly policies = new Map<string, ReportPolicy>();
  readonly connections = new Map<string, ReportConnection>();
  readonly dataAccess = new Map<string, DataAccess>();
  readonly weeks = new Map<number, WeekFacts>();
  /** Change and tamper events detected in the period (11.6.1), by kind. */
  readonly changeEvents: ChangeEvents = { new_scripts: 0, hash_changes: 0, header_changes: 0, csp_violations: 0, unexpected_iframes: 0, recipient_mismatches: 0 };
  private readonly seen = new Set<string>();
  /** Resolutions and reopenings by alert id, applied once every fact is in (they may come before the alert). */
  private readonly statusChanges: Array<{ alertId: string; status: 'open' | 'resolved'; at: string; by: string; note: string | null }> = [];
  /** Further occurrences by alert id, counted as the alerts service counts them (they may come before the alert). */
  private readonly occurrences = new Map<string, { count: number; lastSeenAt: string }>();

  constructor(
    private readonly storeId: string,
    private readonly period: ReportPeriod,
  ) {}

  /** Applies one fact; a fact delivered twice (at least once) counts once. */
  apply(fact: ReportFact): void {
    const at = Date.parse(fact.occurred_at);
    if (this.seen.has(fact.id)) return;
    if (at > this.period.end) {
      // A period that ends before the store existed still names it, by the identity it was created with.
      if (fact.type === T.storeCreated && fact.store_id === this.storeId && !this.store) this.storeCreated(fact.data);
      return;
    }
    this.seen.add(fact.id);
    const inPeriod = at >= this.period.start;
    if (isAlertFact(fact)) {
      if (fact.type === ALERT_STATUS_CHANGED) {
        const { alert_id: alertId, status, at: changedAt, by, note } = fact.data;
        this.statusChanges.push({ alertId, status, at: changedAt, by, note });
      } else if (fact.type === ALERT_OCCURRED) {
        this.occurred(fact.data.alert_id, fact.data.at);
      } else if (fact.store_id === this.storeId) {
        this.applyAlert(fact, inPeriod);
      }
      return;
    }
    // Policies may be organization-wide: they arrive without this store's id.
    if (fact.store_id !== this.storeId && !fact.type.startsWith('inventory.policy.')) return;
    this.applyInventory(fact, at, inPeriod);
  }

  private applyInventory(fact: InventoryFact, at: number, inPeriod: boolean): void {
    switch (fact.type) {
      case T.storeCreated:
        return this.storeCreated(fact.data);
      case T.storeUpdated:
        return this.storeUpdated(fact.data);
      case T.storeSuspended:
        if (this.store) this.store.status = 'suspended';
        return;
      case T.storePagesAdded:
        if (this.store) this.store.payment_pages.push(...fact.data.payment_pages);
        return;
      case T.scriptDetected:
        this.seenOnPage(at, inPeriod, fact.data.page_url);
        return this.scriptDetected(fact.data, inPeriod);
      case T.scriptHashChanged:
        this.seenOnPage(at, inPeriod, fact.data.page_url);
        return this.hashChanged(fact.data, inPeriod);
      case T.scriptIntegrityRestored: {
        // As the inventory shows it: the held mismatch ends (only ever while authorized) on the authorized content.
        const script = this.scripts.get(fact.data.script_id);
        if (script) script.integrity_status = integrityOf('authorized', fact.data.hash, script.authorized_hash);
        return;
      }
      case T.scriptAuthorized:
      case T.scriptBlocked:
      case T.scriptReviewRequested:
        return this.decided(fact.type, fact.data);
      case T.scriptSuspicious: {
        const script = this.scripts.get(fact.data.script_id);
        if (script) script.status = 'suspicious';
        return;
      }
      case T.headersBaselined:
        this.headerCheck(at, inPeriod, fact.data.page);
        return this.headersBaselined(fact.data);
      case T.headersChanged:
        this.headerCheck(at, inPeriod, fact.data.page);
        return this.headersChanged(fact.data, inPeriod);
      case T.sensitiveFieldAccessed:
        this.seenOnPage(at, inPeriod, fact.data.page_url);
        return this.fieldAccessed(fact.data, inPeriod);
      case T.cspViolation:
      case T.iframeUnexpected:
      case T.recipientMismatched:
        this.seenOnPage(at, inPeriod, fact.data.page_url);
        if (inPeriod) this.changeEvents[SIGNAL_KINDS[fact.type]] += 1;
        return;
      case T.policyCreated:
      case T.policyUpdated:
      case T.policyDeleted:
      case T.policyApplied:
        return this.applyPolicy(fact, inPeriod);
      case T.connectionDetected:
      case T.connectionSeen:
        return this.connectionSeen(fact.data);
      case T.sdkActivity:
        return;
    }
  }

  /** Each sighting adds what it names (the inventory sent each page and initiator once, up to its bounds). */
  private connectionSeen(data: ConnectionSeenFact): void {
    const connection = this.connections.get(data.connection_id) ?? { origin: data.origin, via: [], pages: [], initiators: [], first_seen_at: data.at, last_seen_at: data.at };
    this.connections.set(data.connection_id, connection);
    const add = (list: string[], item: string | null | undefined) => item && !list.includes(item) && list.push(item);
    add(connection.via, data.via);
    add(connection.pages, data.page);
    add(connection.initiators, data.initiator?.src);
    if (data.at > connection.last_seen_at) connection.last_seen_at = data.at;
    if (data.at < connection.first_seen_at) connection.first_seen_at = data.at;
  }

  private storeCreated(data: StoreCreatedFact): void {
    this.store = {
      id: data.store_id,
      org_id: data.org_id,
      name: data.name,
      domain: data.domain,
      timezone: data.timezone ?? 'America/Sao_Paulo',
      status: 'active',
      payment_pages: [...(data.payment_pages ?? [])],
      created_at: data.created_at,
    };
  }

  private storeUpdated(data: StoreUpdatedFact): void {
    if (!this.store || !data.profile) return;
    if (data.profile.name !== undefined) this.store.name = data.profile.name;
    if (data.profile.timezone !== undefined) this.store.timezone = data.profile.timezone;
  }

  private scriptDetected(data: ScriptDetectedFact, inPeriod: boolean): void {
    if (inPeriod) this.changeEvents.new_scripts += 1;
    if (this.scripts.has(data.script_id)) return;
    this.scripts.set(data.script_id, {
      id: data.script_id,
      src: data.src,
      inline: data.inline,
      party: data.type,
      category: data.category,
      vendor_id: data.vendor_id,
      status: data.status,
      integrity_status: integrityOf(data.status, data.hash, null),
      current_hash: data.hash,
      authorized_hash: null,
      sri_hash: data.sri_hash ?? null,
      integrity_attr: data.integrity_attr ?? null,
      justification: null,
      authorization_method: null,
      authorized_by: null,
      authorized_at: null,
      expires_at: null,
      policy_id: null,
      policy_version: null,
      first_seen_at: data.detected_at,
      last_seen_at: data.detected_at,
      hash_changes_in_period: 0,
      decisions: [],
      expired: false,
    });
  }

  private hashChanged(data: ScriptHashChangedFact, inPeriod: boolean): void {
    if (inPeriod) this.changeEvents.hash_changes += 1;
    const script = this.scripts.get(data.script_id);
    if (!script) return;
    script.current_hash = data.new_hash;
    script.authorized_hash = data.authorized_hash;
    script.integrity_status = data.integrity_status;
    script.last_seen_at = maxTime(script.last_seen_at, data.changed_at);
    if (inPeriod) script.hash_changes_in_period += 1;
  }

  private decided(topic: string, data: ScriptDecisionFact): void {
    const script = this.scripts.get(data.script_id);
    if (!script) return;
    const action = topic === T.scriptAuthorized ? 'authorize' : topic === T.scriptBlocked ? 'block' : 'needs_review';
    script.decisions.push({ action, method: data.method, by: data.by, justification: data.justification, at: data.at });
    const status = action === 'authorize' ? 'authorized' : action === 'block' ? 'blocked' : 'needs_review';
    script.status = status;
    script.expired = action === 'needs_review' && data.method === 'expiry';
    script.justification = data.justification;
    script.authorization_method = data.method;
    script.authorized_by = data.by;
    script.authorized_at = data.at;
    script.policy_id = data.policy_id;
    script.policy_version = data.policy_version;
    script.expires_at = action === 'authorize' ? (data.expires_at ?? null) : null;
    if (action === 'authorize') script.authorized_hash = data.authorized_hash === undefined ? script.current_hash : data.authorized_hash;
    // As the inventory shows it (its projection computes it the same way on each decision).
    script.integrity_status =
      status === 'authorized' ? integrityOf(status, script.authorized_hash, script.authorized_hash) : integrityOf(status, script.current_hash, null);
  }

  private headersBaselined(data: HeadersBaselinedFact): void {
    const page = this.page(data.page, data.at);
    for (const [name, value] of Object.entries(data.headers)) {
      page.values.set(name, { page: data.page, name, baseline: value, last_value: value, baseline_at: data.at, changes: [] });
    }
  }

  private headersChanged(data: HeadersChangedFact, inPeriod: boolean): void {
    const page = this.page(data.page, data.at);
    for (const change of data.changes) {
      let header = page.values.get(change.name);
      if (!header) {
        // Absent when the page was baselined: the baseline is "absent".
        header = { page: data.page, name: change.name, baseline: null, last_value: null, baseline_at: page.baselineAt, changes: [] };
        page.values.set(change.name, header);
      }
      header.last_value = change.new_value;
      if (inPeriod) {
        header.changes.push({ change_type: change.change_type, old_value: change.old_value, new_value: change.new_value, at: data.at });
        this.changeEvents.header_changes += 1;
      }
    }
  }

  private page(path: string, at: string): HeaderState {
    let page = this.headers.get(path);
    if (!page) {
      page = { page: path, baselineAt: at, values: new Map() };
      this.headers.set(path, page);
    }
    return page;
  }

  /** A read counts for every script on its stack: a skimmer reading through jQuery is listed, not jQuery alone. */
  private fieldAccessed(data: SensitiveFieldAccessedFact, inPeriod: boolean): void {
    for (const reader of [data, ...(data.callers ?? [])]) this.fieldReadBy(reader, data, inPeriod);
  }

  private fieldReadBy({ script_id, src }: FieldReadingScript, { field, at }: SensitiveFieldAccessedFact, inPeriod: boolean): void {
    const script = this.scripts.get(script_id);
    if (script) script.last_seen_at = maxTime(script.last_seen_at, at);
    if (!inPeriod) return;
    const key = `${script_id}\u0000${field}`;
    const access = this.dataAccess.get(key);
    if (access) {
      access.accesses += 1;
      access.first_at = minTime(access.first_at, at);
      access.last_at = maxTime(access.last_at, at);
    } else {
      this.dataAccess.set(key, { script_id, src, field_class: field, accesses: 1, script_authorized: false, first_at: at, last_at: at });
    }
  }

  private occurred(alertId: string, at: string): void {
    const counted = this.occurrences.get(alertId);
    if (counted) {
      counted.count += 1;
      counted.lastSeenAt = maxTime(counted.lastSeenAt, at);
    } else {
      this.occurrences.set(alertId, { count: 1, lastSeenAt: at });
    }
  }

  /**
   * Alerts as of period_end: their further occurrences counted, their resolutions and reopenings applied in time
   * order. Call once, after every fact.
   */
  settleAlerts(): void {
    for (const [alertId, counted] of this.occurrences) {
      const alert = this.alerts.get(alertId);
      if (!alert) continue;
      alert.occurrences += counted.count;
      alert.last_seen_at = maxTime(alert.last_seen_at, counted.lastSeenAt);
    }
    const changes = [...this.statusChanges].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
    for (const change of changes) {
      const alert = this.alerts.get(change.alertId);
      if (!alert) continue;
      const resolved = change.status === 'resolved';
      Object.assign(alert, { status: change.status, resolved_at: resolved ? change.at : null, resolved_by_label: resolved ? change.by : null });
      if (change.note !== null) alert.note = change.note;
    }
  }

  private applyAlert({ type: topic, data: alert, occurred_at }: AlertResourceFact, inPeriod: boolean): void {
    if (topic === ALERT_TOPICS.resolved) {
      this.statusChanges.push({ alertId: alert.id, status: 'resolved', at: alert.resolved_at ?? occurred_at, by: alert.resolved_by_label ?? 'system', note: null });
      return;
    }
    if (topic !== ALERT_TOPICS.created || this.alerts.has(alert.id)) return;
    this.alerts.set(alert.id, {
      id: alert.id,
      type: alert.type,
      severity: alert.severity,
      status: alert.status,
      source: alert.source,
      page: alert.page,
      occurrences: alert.occurrences,
      first_seen_at: alert.first_seen_at,
      last_seen_at: alert.last_seen_at,
      resolved_at: alert.resolved_at,
      resolved_by_label: alert.resolved_by_label,
      note: alert.note,
      opened_in_period: inPeriod,
    });
  }

  private applyPolicy(fact: InventoryFact, inPeriod: boolean): void {
    switch (fact.type) {
      case T.policyCreated: {
        const { data } = fact;
        if (data.store_id !== null && data.store_id !== this.storeId) return;
        const { policy_id: id, name, store_id, version, mode, action, active, priority, is_default } = data;
        this.policies.set(id, { id, name, store_id, version, mode, action, active, priority, is_default, decisions_in_period: 0 });
        return;
      }
      case T.policyUpdated: {
        const { data } = fact;
        const policy = this.policies.get(data.policy_id);
        if (policy) Object.assign(policy, data.changes, { version: data.version });
        return;
      }
      case T.policyDeleted:
        this.policies.delete(fact.data.policy_id);
        return;
      case T.policyApplied: {
        const { data } = fact;
        const policy = this.policies.get(data.policy_id);
        if (policy && inPeriod && data.store_id === this.storeId) policy.decisions_in_period += 1;
        return;
      }
    }
  }

  private seenOnPage(at: number, inPeriod: boolean, pageUrl: string): void {
    if (inPeriod) this.week(at).pages.add(pathOf(pageUrl));
  }

  private headerCheck(at: number, inPeriod: boolean, page: string): void {
    if (!inPeriod) return;
    const week = this.week(at);
    week.headerChecks += 1;
    week.pages.add(page);
  }

  private week(at: number): WeekFacts {
    const start = weekStartOf(at);
    let week = this.weeks.get(start);
    if (!week) {
      week = { pages: new Set(), headerChecks: 0 };
      this.weeks.set(start, week);
    }
    return week;
  }
}

const maxTime = (a: string, b: string): string => (Date.parse(b) > Date.parse(a) ? b : a);
const minTime = (a: string, b: string): string => (Date.parse(b) < Date.parse(a) ? b : a);

function pathOf(pageUrl: string): string {
  try {
    return new URL(pageUrl).pathname;
  } catch {
    return pageUrl;
  }
}
