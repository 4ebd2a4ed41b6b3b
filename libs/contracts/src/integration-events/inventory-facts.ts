import type { IntegrationEvent } from '../integration-event';
import type { BillingMode, Plan } from '../plans';
import type { AuthorizationMethod, ScriptStatus } from '../read-models/script';
import type { PolicyAction, PolicyMode } from '../read-models/policy';
import type { ConnectionVia } from '../sdk/connections';

/**
 * The `data` of inventory's integration events, typed once here for its producer and every consumer; the AsyncAPI
 * document and docs/events.md are generated from it (`npm run -s build:events-docs`). Fields only ever get added
 * (a breaking change is a new version of the topic).
 */
export const INVENTORY_TOPICS = {
  organizationCreated: 'inventory.organization.created',
  storeCreated: 'inventory.store.created',
  storeUpdated: 'inventory.store.updated',
  storeSuspended: 'inventory.store.suspended',
  storePagesAdded: 'inventory.store.pages-added',
  scriptDetected: 'inventory.script.detected',
  scriptHashChanged: 'inventory.script.hash-changed',
  scriptIntegrityRefused: 'inventory.script.integrity-refused',
  scriptIntegrityRestored: 'inventory.script.integrity-restored',
  scriptAuthorized: 'inventory.script.authorized',
  scriptBlocked: 'inventory.script.blocked',
  scriptReviewRequested: 'inventory.script.review-requested',
  scriptSuspicious: 'inventory.script.suspicious',
  headersBaselined: 'inventory.headers.baselined',
  headersChanged: 'inventory.headers.changed',
  cspViolation: 'inventory.csp.violation',
  sensitiveFieldAccessed: 'inventory.sensitive-field.accessed',
  iframeUnexpected: 'inventory.iframe.unexpected',
  recipientMismatched: 'inventory.recipient.mismatched',
  connectionDetected: 'inventory.connection.detected',
  connectionSeen: 'inventory.connection.seen',
  ruleChanged: 'inventory.rule.changed',
  policyApplied: 'inventory.policy.applied',
  policyCreated: 'inventory.policy.created',
  policyUpdated: 'inventory.policy.updated',
  policyDeleted: 'inventory.policy.deleted',
  sdkActivity: 'inventory.sdk.activity',
} as const;

export type InventoryTopic = (typeof INVENTORY_TOPICS)[keyof typeof INVENTORY_TOPICS];

/**
 * The facts that change what a store's SDK acts on (its mode and developer mode, its rules, its authorized
 * scripts, and the external scripts it could not hash, which a new script may join): every gateway replica drops the
 * store's built `sdk.js` on each, so the next page view gets the change. A new script's fact is bounded by the
 * store's new-script budget, so it cannot make a gateway rebuild more often than a store may add scripts.
 */
export const SDK_CONFIG_TOPICS: readonly InventoryTopic[] = [
  INVENTORY_TOPICS.storeUpdated,
  INVENTORY_TOPICS.scriptDetected,
  INVENTORY_TOPICS.storeSuspended,
  INVENTORY_TOPICS.ruleChanged,
  INVENTORY_TOPICS.scriptAuthorized,
  INVENTORY_TOPICS.scriptBlocked,
  INVENTORY_TOPICS.scriptReviewRequested,
];

/** Read by the notifier for the owner's e-mail channel; the organization's id is also the envelope's `org_id`. */
export interface OrganizationCreatedFact {
  org_id: string;
  name: string;
  plan: Plan;
  billing_mode: BillingMode;
  parent_org_id: string | null;
  owner_email: string | null;
  created_at: string;
}

export interface StoreCreatedFact {
  store_id: string;
  org_id: string;
  domain: string;
  name: string;
  /** Added in version 1 after the first consumers: absent on facts published before. */
  timezone?: string;
  payment_pages?: string[];
  sdk_config: Record<string, unknown>;
  created_at: string;
}

export interface StoreUpdatedFact {
  store_id: string;
  profile?: { name?: string; country?: string; timezone?: string; emergency_contact?: string | null };
  sdk_config?: Record<string, unknown>;
  recipient_hashes?: Array<{ method: string; key_hash: string }>;
  updated_at: string;
}

export interface StoreSuspendedFact {
  store_id: string;
  suspended_at: string;
}

export interface StorePagesAddedFact {
  store_id: string;
  /** The url patterns added. */
  payment_pages: string[];
  added_at: string;
}

export interface ScriptDetectedFact {
  script_id: string;
  store_id: string;
  src: string;
  inline: boolean;
  host: string | null;
  type: string;
  category: string | null;
  vendor_id: string | null;
  /** needs_review or malicious. */
  status: ScriptStatus;
  hash: string | null;
  /** Added later in version 1: absent on older facts. */
  sri_hash?: string | null;
  integrity_attr?: boolean | null;
  page_url: string;
  session_id: string;
  detected_at: string;
}

export interface ScriptHashChangedFact {
  script_id: string;
  store_id: string;
  src: string;
  previous_hash: string | null;
  new_hash: string | null;
  authorized_hash: string | null;
  integrity_status: string;
  unauthorized_change: boolean;
  page_url: string;
  session_id?: string;
  changed_at: string;
}

/** The browser refused to run a script: its content is not what the page's `integrity` attribute pins. */
export interface ScriptIntegrityRefusedFact {
  script_id: string;
  store_id: string;
  src: string;
  /** The hash of what is served (the SDK's own). */
  hash: string;
  /** The page's integrity tokens the browser checked. */
  refused_integrity: string;
  page_url: string;
  session_id: string;
  refused_at: string;
}

/**
 * A held mismatch ended without a decision: the authorized content was seen again from `sessions` distinct sessions
 * over `clients` client addresses (issue 29). The script's integrity is a match again.
 */
export interface ScriptIntegrityRestoredFact {
  script_id: string;
  store_id: string;
  /** The authorized hash that was seen. */
  hash: string;
  sessions: number;
  clients: number;
  restored_at: string;
}

/**
 * A block or allow rule was created, changed (label, active) or deleted: what every gateway replica reads to rebuild
 * the store's `sdk.js` at once. `store_id` is null only for changes recorded before it was published.
 */
export interface RuleChangedFact {
  rule_id: string;
  store_id: string | null;
  change: 'created' | 'updated' | 'deleted';
  at: string;
}

/** `inventory.script.authorized`, `inventory.script.blocked`, `inventory.script.review-requested`. */
export interface ScriptDecisionFact {
  script_id: string;
  store_id: string;
  method: AuthorizationMethod;
  by: string;
  justification: string | null;
  policy_id: string | null;
  policy_version: number | null;
  at: string;
  /** Authorized only (added later in version 1). */
  authorized_hash?: string | null;
  expires_at?: string | null;
}

/** An unknown script awaiting review read a sensitive field: its status became `suspicious`. */
export interface ScriptSuspiciousFact {
  script_id: string;
  store_id: string;
  field: string;
  at: string;
}

export interface HeaderChangeFact {
  name: string;
  change_type: 'added' | 'removed' | 'changed';
  old_value: string | null;
  new_value: string | null;
}

export interface HeadersBaselinedFact {
  store_id: string;
  page: string;
  headers: Record<string, string>;
  at: string;
}

export interface HeadersChangedFact {
  store_id: string;
  page: string;
  page_url: string;
  changes: HeaderChangeFact[];
  at: string;
}

interface SeenOnPage {
  store_id: string;
  page_url: string;
  session_id: string;
  at: string;
}

export interface CspViolationFact extends SeenOnPage {
  directive: string;
  blocked_uri: string;
  source_file: string | null;
}

/** A script on the stack of a sensitive-field read, as it stood when the read was recorded. */
export interface FieldReadingScript {
  script_id: string;
  src: string;
  script_authorized: boolean;
}

/** `script_id`, `src`, `script_authorized`: the script that read the field (the innermost on the stack). */
export interface SensitiveFieldAccessedFact extends SeenOnPage, FieldReadingScript {
  field: string;
  /**
   * The scripts that called the reader, innermost first: who read through a library. Absent when the reader
   * read on its own (and in facts recorded before callers were reported).
   */
  callers?: FieldReadingScript[];
}

export interface IframeUnexpectedFact extends SeenOnPage {
  origin: string;
  host: string;
  expected: string[];
}

export interface RecipientMismatchedFact extends SeenOnPage {
  method: string;
  key_hash: string;
  pinned: number;
}

/**
 * A sighting of an origin a store's payment page sent a request to (only the origin: field values never leave
 * the page). `page` and `initiator` are null on a sighting that does not add one to the connection.
 */
export interface ConnectionSeenFact {
  connection_id: string;
  store_id: string;
  origin: string;
  via: ConnectionVia;
  page: string | null;
  /** The script on the stack of the request, when the SDK's wrappers saw one. */
  initiator: { script_id: string; src: string } | null;
  at: string;
}

/** A destination never seen on the store's payment pages, with the page view it was first seen in. */
export interface ConnectionDetectedFact extends ConnectionSeenFact {
  page_url: string;
  session_id: string;
  /**
   * A card-field read of the same page view (session and page) by a script that is not authorized, as inventory
   * knew it when the connection came: the outermost such script on the read's stack. Null when there was none.
   */
  sensitive_read: { script_id: string; src: string; field: string } | null;
}

export interface PolicyAppliedFact {
  policy_id: string;
  policy_version: number | null;
  script_id: string;
  store_id: string;
  action: 'authorize' | 'block' | 'needs_review';
  justification: string | null;
}

/** What a policy says that an assessor reads (not its match and conditions). */
export interface PolicySummary {
  name: string;
  active: boolean;
  mode: PolicyMode;
  priority: number;
  action: PolicyAction;
}

export interface PolicyCreatedFact extends PolicySummary {
  policy_id: string;
  /** null: an organization-level policy. */
  store_id: string | null;
  version: number;
  is_default: boolean;
  created_at: string;
}

export interface PolicyUpdatedFact {
  policy_id: string;
  changes: Partial<PolicySummary>;
  version: number;
  updated_at: string;
}

export interface PolicyDeletedFact {
  policy_id: string;
  deleted_at: string;
}

/**
 * One window of the store's SDK page views (docs/decisions.md, issue 29): published only for a window that had
 * some, with `first_event_at`, `last_event_at`, `batches`, `sessions` and `pages` those of its page views.
 * `observations` counts every batch of the window.
 */
export interface SdkActivityFact {
  store_id: string;
  first_event_at: string;
  last_event_at: string;
  batches: number;
  observations: number;
  /** Added later in version 1: the distinct sessions of the window's page views (up to 10,000). */
  sessions?: number;
  /** Added later in version 1: the distinct client addresses of the window's page views (up to 10,000). */
  clients?: number;
  /** Added later in version 1: batches by page path (at most 200 paths a window; the others count under none). */
  pages?: Array<{ path: string; batches: number }>;
}

/** Each inventory topic with its `data`, so a consumer's `switch (fact.type)` narrows `fact.data`. */
export interface InventoryFactData {
  [INVENTORY_TOPICS.organizationCreated]: OrganizationCreatedFact;
  [INVENTORY_TOPICS.storeCreated]: StoreCreatedFact;
  [INVENTORY_TOPICS.storeUpdated]: StoreUpdatedFact;
  [INVENTORY_TOPICS.storeSuspended]: StoreSuspendedFact;
  [INVENTORY_TOPICS.storePagesAdded]: StorePagesAddedFact;
  [INVENTORY_TOPICS.scriptDetected]: ScriptDetectedFact;
  [INVENTORY_TOPICS.scriptHashChanged]: ScriptHashChangedFact;
  [INVENTORY_TOPICS.scriptIntegrityRefused]: ScriptIntegrityRefusedFact;
  [INVENTORY_TOPICS.scriptIntegrityRestored]: ScriptIntegrityRestoredFact;
  [INVENTORY_TOPICS.scriptAuthorized]: ScriptDecisionFact;
  [INVENTORY_TOPICS.scriptBlocked]: ScriptDecisionFact;
  [INVENTORY_TOPICS.scriptReviewRequested]: ScriptDecisionFact;
  [INVENTORY_TOPICS.scriptSuspicious]: ScriptSuspiciousFact;
  [INVENTORY_TOPICS.headersBaselined]: HeadersBaselinedFact;
  [INVENTORY_TOPICS.headersChanged]: HeadersChangedFact;
  [INVENTORY_TOPICS.cspViolation]: CspViolationFact;
  [INVENTORY_TOPICS.sensitiveFieldAccessed]: SensitiveFieldAccessedFact;
  [INVENTORY_TOPICS.iframeUnexpected]: IframeUnexpectedFact;
  [INVENTORY_TOPICS.recipientMismatched]: RecipientMismatchedFact;
  [INVENTORY_TOPICS.connectionDetected]: ConnectionDetectedFact;
  [INVENTORY_TOPICS.connectionSeen]: ConnectionSeenFact;
  [INVENTORY_TOPICS.ruleChanged]: RuleChangedFact;
  [INVENTORY_TOPICS.policyApplied]: PolicyAppliedFact;
  [INVENTORY_TOPICS.policyCreated]: PolicyCreatedFact;
  [INVENTORY_TOPICS.policyUpdated]: PolicyUpdatedFact;
  [INVENTORY_TOPICS.policyDeleted]: PolicyDeletedFact;
  [INVENTORY_TOPICS.sdkActivity]: SdkActivityFact;
}

/** One topic's fact: what a consumer of that topic alone (an `@EventPattern` of it) receives. */
export type InventoryFactOf<Topic extends InventoryTopic> = IntegrationEvent<InventoryFactData[Topic]> & { type: Topic };

export type InventoryFact = { [Topic in InventoryTopic]: InventoryFactOf<Topic> }[InventoryTopic];

const inventoryTopics = new Set<string>(Object.values(INVENTORY_TOPICS));

/** Narrows an integration event to one of inventory's facts by its topic, so a consumer reads `data` typed. */
export const isInventoryFact = (event: IntegrationEvent<unknown>): event is InventoryFact => inventoryTopics.has(event.type);
