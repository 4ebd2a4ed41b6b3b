import {
  INVENTORY_TOPICS as T,
  ALERT_STATUSES,
  AUTHORIZATION_METHODS,
  CONNECTION_VIAS,
  BILLING_MODES,
  PLAN_NAMES,
  POLICY_ACTIONS,
  POLICY_MODES,
  SCRIPT_STATUSES,
  type AlertOccurredData,
  type AlertStatusChangedData,
  type ConnectionDetectedFact,
  type ConnectionSeenFact,
  type FieldReadingScript,
  type InventoryFactData,
  type IntegrationEvent,
  type PolicyUpdatedFact,
  type ReportReadyData,
  type ReportScheduleChangedData,
  type ScriptDecisionFact,
} from '@pss/contracts';
import type { JsonSchema } from '../json-schema';
import { orNull } from '../json-schema';
import { anyObject, bool, count, dateTime, integer, oneOf, ref, shape, strings, text, uuid } from '../resource-schemas';

/**
 * The `data` of every integration event, each written against the TypeScript type its producer publishes and its
 * consumers import (libs/contracts): `shape<T>()` fails the typecheck when a field is added or removed.
 */
const url = text;
/** A field's schema with what a reader needs to know of it (docs/events.md shows it beside the name). */
const noted = (schema: JsonSchema, description: string): JsonSchema => ({ ...schema, description });
const pagePath = noted(text, 'The payment page\'s path.');
const nullableText = orNull(text);
const seenOnPage = { store_id: uuid, page_url: url, session_id: text, at: dateTime };

const scriptDecision = (description: string) =>
  shape<ScriptDecisionFact>(
    description,
    {
      script_id: uuid,
      store_id: uuid,
      method: oneOf(AUTHORIZATION_METHODS),
      by: text,
      justification: nullableText,
      policy_id: orNull(uuid),
      policy_version: orNull(integer),
      at: dateTime,
      authorized_hash: nullableText,
      expires_at: orNull(dateTime),
    },
    ['authorized_hash', 'expires_at'],
  );

const connectionSighting = {
  connection_id: uuid,
  store_id: uuid,
  origin: noted(text, 'scheme://host[:port], as browsers write it.'),
  via: oneOf(CONNECTION_VIAS),
  page: noted(orNull(text), "The page's path; null when the sighting adds no page to the connection."),
  initiator: noted(
    orNull(shape<NonNullable<ConnectionSeenFact['initiator']>>('A script on the stack of the request.', { script_id: uuid, src: text })),
    'The script on the stack of the request; null when none was seen or it adds none to the connection.',
  ),
  at: dateTime,
};

const policySummary = { name: text, active: bool, mode: oneOf(POLICY_MODES), priority: integer, action: oneOf(POLICY_ACTIONS) };

export const INVENTORY_FACT_SCHEMAS: { [Topic in keyof InventoryFactData]: JsonSchema } = {
  [T.organizationCreated]: shape<InventoryFactData[typeof T.organizationCreated]>('An organization was created.', {
    org_id: uuid,
    name: text,
    plan: oneOf(PLAN_NAMES),
    billing_mode: oneOf(BILLING_MODES),
    parent_org_id: orNull(uuid),
    owner_email: nullableText,
    created_at: dateTime,
  }),
  [T.storeCreated]: shape<InventoryFactData[typeof T.storeCreated]>(
    'A store was created.',
    {
      store_id: uuid,
      org_id: uuid,
      domain: text,
      name: text,
      timezone: text,
      payment_pages: noted(strings, 'Their url patterns.'),
      sdk_config: noted(anyObject, 'Without updated_at.'),
      created_at: dateTime,
    },
    ['timezone', 'payment_pages'],
  ),
  [T.storeUpdated]: shape<InventoryFactData[typeof T.storeUpdated]>(
    'What changed in a store: only the parts that changed are present.',
    {
      store_id: uuid,
      profile: { type: 'object', properties: { name: text, country: text, timezone: text, emergency_contact: nullableText } },
      sdk_config: { type: 'object', description: 'The changed keys only.' },
      recipient_hashes: { type: 'array', description: 'The full new set.', items: { type: 'object', required: ['method', 'key_hash'], properties: { method: text, key_hash: text } } },
      updated_at: dateTime,
    },
    ['profile', 'sdk_config', 'recipient_hashes'],
  ),
  [T.storeSuspended]: shape<InventoryFactData[typeof T.storeSuspended]>('A store was suspended.', { store_id: uuid, suspended_at: dateTime }),
  [T.storePagesAdded]: shape<InventoryFactData[typeof T.storePagesAdded]>('Payment pages were added (their url patterns).', {
    store_id: uuid,
    payment_pages: noted(strings, 'The url patterns added.'),
    added_at: dateTime,
  }),
  [T.scriptDetected]: shape<InventoryFactData[typeof T.scriptDetected]>(
    'A new script appeared on a payment page.',
    {
      script_id: uuid,
      store_id: uuid,
      src: text,
      inline: bool,
      host: nullableText,
      type: text,
      category: nullableText,
      vendor_id: nullableText,
      status: noted(oneOf(SCRIPT_STATUSES), 'needs_review, or malicious for a script on the threat list'),
      hash: nullableText,
      sri_hash: nullableText,
      integrity_attr: orNull(bool),
      page_url: url,
      session_id: text,
      detected_at: dateTime,
    },
    ['sri_hash', 'integrity_attr'],
  ),
  [T.scriptHashChanged]: shape<InventoryFactData[typeof T.scriptHashChanged]>(
    "A script's content changed.",
    {
      script_id: uuid,
      store_id: uuid,
      src: text,
      previous_hash: nullableText,
      new_hash: nullableText,
      authorized_hash: nullableText,
      integrity_status: text,
      unauthorized_change: noted(bool, "True when an authorized script's content is no longer the authorized one."),
      page_url: url,
      session_id: text,
      changed_at: dateTime,
    },
    ['session_id'],
  ),
  [T.scriptIntegrityRefused]: shape<InventoryFactData[typeof T.scriptIntegrityRefused]>(
    "The browser refused to run a script: its content is not what the page's integrity attribute pins (published again when it refuses other content).",
    {
      script_id: uuid,
      store_id: uuid,
      src: text,
      hash: noted(text, "What is served: the SDK's SHA-384."),
      refused_integrity: noted(text, "The page's integrity tokens the browser checked."),
      page_url: url,
      session_id: text,
      refused_at: dateTime,
    },
  ),
  [T.scriptIntegrityRestored]: shape<InventoryFactData[typeof T.scriptIntegrityRestored]>(
    'A held mismatch ended with no decision: the authorized content was seen again from enough sessions over enough client addresses (3 over 2). The script is a match again.',
    {
      script_id: uuid,
      store_id: uuid,
      hash: noted(text, 'The authorized hash seen again.'),
      sessions: noted(count, 'Distinct sessions it was seen from.'),
      clients: noted(count, 'Distinct client addresses it was seen from.'),
      restored_at: dateTime,
    },
  ),
  [T.scriptAuthorized]: scriptDecision('A script was authorized.'),
  [T.scriptBlocked]: scriptDecision('A script was blocked.'),
  [T.scriptReviewRequested]: scriptDecision('A policy or the expiry of an authorization (method expiry) sent a script back to review.'),
  [T.ruleChanged]: shape<InventoryFactData[typeof T.ruleChanged]>('A block or allow rule was created, changed or deleted: every gateway replica rebuilds the store\'s sdk.js.', {
    rule_id: uuid,
    store_id: noted(orNull(uuid), 'Null only for changes recorded before this fact was published.'),
    change: oneOf(['created', 'updated', 'deleted']),
    at: dateTime,
  }),
  [T.scriptSuspicious]: shape<InventoryFactData[typeof T.scriptSuspicious]>('An unknown script awaiting review read a sensitive field: its status became suspicious.', {
    script_id: uuid,
    store_id: uuid,
    field: text,
    at: dateTime,
  }),
  [T.headersBaselined]: shape<InventoryFactData[typeof T.headersBaselined]>('The first security headers of a payment page.', {
    store_id: uuid,
    page: pagePath,
    headers: { type: 'object', additionalProperties: text },
    at: dateTime,
  }),
  [T.headersChanged]: shape<InventoryFactData[typeof T.headersChanged]>('Security headers of a payment page changed.', {
    store_id: uuid,
    page: pagePath,
    page_url: url,
    changes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'change_type', 'old_value', 'new_value'],
        properties: { name: text, change_type: oneOf(['added', 'removed', 'changed']), old_value: nullableText, new_value: nullableText },
      },
    },
    at: dateTime,
  }),
  [T.cspViolation]: shape<InventoryFactData[typeof T.cspViolation]>('A CSP violation on a payment page.', {
    ...seenOnPage,
    directive: text,
    blocked_uri: text,
    source_file: nullableText,
  }),
  [T.sensitiveFieldAccessed]: shape<InventoryFactData[typeof T.sensitiveFieldAccessed]>(
    'A script read a sensitive field (script_id, src, script_authorized: the reader), called by `callers` when it read for them.',
    {
      ...seenOnPage,
      script_id: uuid,
      src: text,
      field: text,
      script_authorized: bool,
      callers: {
        type: 'array',
        description: 'The scripts that called the reader, innermost first (a skimmer reading through a library); absent when it read on its own.',
        items: shape<FieldReadingScript>('A script on the stack of the read.', { script_id: uuid, src: text, script_authorized: bool }),
      },
    },
    ['callers'],
  ),
  [T.iframeUnexpected]: shape<InventoryFactData[typeof T.iframeUnexpected]>('An iframe from an origin not expected.', {
    ...seenOnPage,
    origin: text,
    host: text,
    expected: strings,
  }),
  [T.recipientMismatched]: shape<InventoryFactData[typeof T.recipientMismatched]>('A payment recipient the store does not pin.', {
    ...seenOnPage,
    method: text,
    key_hash: text,
    pinned: noted(count, 'How many recipients the store pins for that method.'),
  }),
  [T.connectionDetected]: shape<InventoryFactData[typeof T.connectionDetected]>(
    'A destination never seen on the store\'s payment pages: only its origin, with the page view it was first seen in.',
    {
      ...connectionSighting,
      page_url: url,
      session_id: text,
      sensitive_read: noted(
        orNull(shape<NonNullable<ConnectionDetectedFact['sensitive_read']>>('A card-field read by a script not authorized.', { script_id: uuid, src: text, field: text })),
        'A card-field read of the same page view by a script that is not authorized (the outermost on its stack); null when there was none.',
      ),
    },
  ),
  [T.connectionSeen]: shape<InventoryFactData[typeof T.connectionSeen]>('A known destination seen again: a new page, initiator or way of reaching it, or its last-seen time moved.', connectionSighting),
  [T.policyApplied]: shape<InventoryFactData[typeof T.policyApplied]>('A policy decided on a script (automatic mode or Apply).', {
    policy_id: uuid,
    policy_version: orNull(integer),
    script_id: uuid,
    store_id: uuid,
    action: oneOf(POLICY_ACTIONS),
    justification: nullableText,
  }),
  [T.policyCreated]: shape<InventoryFactData[typeof T.policyCreated]>('A policy was created (not its match and conditions).', {
    ...policySummary,
    policy_id: uuid,
    store_id: noted(orNull(uuid), 'Null: an organization-wide policy.'),
    version: integer,
    is_default: bool,
    created_at: dateTime,
  }),
  [T.policyUpdated]: shape<PolicyUpdatedFact>('A policy changed.', {
    policy_id: uuid,
    changes: { type: 'object', properties: policySummary },
    version: integer,
    updated_at: dateTime,
  }),
  [T.policyDeleted]: shape<InventoryFactData[typeof T.policyDeleted]>('A policy was deleted.', { policy_id: uuid, deleted_at: dateTime }),
  [T.sdkActivity]: shape<InventoryFactData[typeof T.sdkActivity]>(
    'The SDK of a store reported page views in a flush window (about every 5 s while it reports): a session’s batch with script observations. Windows without any are not published.',
    {
      store_id: uuid,
      first_event_at: dateTime,
      last_event_at: dateTime,
      batches: { ...count, description: 'Page-view batches.' },
      observations: { ...count, description: 'Observations of every batch of the window.' },
      sessions: { ...count, description: 'Distinct sessions of the page views (up to 10,000).' },
      clients: { ...count, description: 'Distinct client addresses of the page views (up to 10,000); addresses are never published.' },
      pages: {
        type: 'array',
        description: 'Batches by page path, at most 200 paths a window (batches from further paths count under none).',
        items: { type: 'object', required: ['path', 'batches'], properties: { path: text, batches: count } },
      },
    },
    ['sessions', 'clients', 'pages'],
  ),
};

export const ALERT_STATUS_CHANGED_SCHEMA = shape<AlertStatusChangedData>('A person resolved or reopened an alert (PATCH); the envelope\'s store_id is null. Not a webhook event.', {
  alert_id: uuid,
  status: oneOf(ALERT_STATUSES),
  by: text,
  at: dateTime,
  note: nullableText,
});

export const ALERT_OCCURRED_SCHEMA = shape<AlertOccurredData>(
  "A further occurrence counted on an open (or snoozed) alert; the envelope's store_id is the alert's store (null on occurrences recorded before it was named). Not a webhook event.",
  { alert_id: uuid, at: noted(dateTime, 'When it was seen.') },
);

export const REPORT_READY_SCHEMA = shape<ReportReadyData>('A scheduled report snapshot is ready, once per store and period (never for GET /reports/pci).', {
  report_id: noted(uuid, 'The snapshot.'),
  store_id: uuid,
  kind: oneOf(['weekly', 'monthly', 'on_demand']),
  period_start: dateTime,
  period_end: dateTime,
  locale: oneOf(['pt-BR', 'en']),
  sha256: nullableText,
  links: {
    type: 'object',
    description: 'API paths of the snapshot as JSON, PDF and each CSV table.',
    required: ['json', 'pdf', 'csv'],
    properties: { json: text, pdf: text, csv: { type: 'object', required: ['scripts', 'headers', 'alerts'], properties: { scripts: text, headers: text, alerts: text } } },
  },
});

export const SCHEDULE_CHANGED_SCHEMA = shape<ReportScheduleChangedData>("A store's report schedule was set, or deleted (`schedule: null`).", {
  store_id: uuid,
  revision: noted(integer, "Grows with every change of the store's schedule: keep the highest."),
  schedule: orNull(ref('ReportSchedule')),
});

/** The envelope of every integration event (docs/events.md). */
export const ENVELOPE_SCHEMA = shape<IntegrationEvent>('The envelope of an integration event, version 1.', {
  id: { type: 'string', pattern: '^evt_[0-9a-f]{32}$' },
  type: text,
  version: { type: 'integer', minimum: 1 },
  source: oneOf(['inventory', 'alerts', 'reports']),
  org_id: orNull(uuid),
  store_id: orNull(uuid),
  occurred_at: dateTime,
  correlation_id: nullableText,
  position: count,
  data: anyObject,
});
