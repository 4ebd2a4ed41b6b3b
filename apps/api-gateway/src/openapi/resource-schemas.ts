import {
  ALERT_SEVERITIES,
  ALERT_STATUSES,
  ALERT_TYPES,
  AUTHORIZATION_METHODS,
  BILLING_MODES,
  CONNECTION_VIAS,
  DOMAIN_CLAIMS,
  CHANNEL_FORMATS,
  INTEGRITY_STATUSES,
  MAX_CALLERS,
  MAX_CONNECTION_INITIATORS,
  MAX_CONNECTION_PAGES,
  MAX_OBSERVATIONS_PER_BATCH,
  MAX_ORIGIN_LENGTH,
  OWNER_INVITE_OUTCOMES,
  PLAN_NAMES,
  STORE_ENVIRONMENTS,
  POLICY_ACTIONS,
  POLICY_MODES,
  REPORT_CSV_TABLES,
  REPORT_KINDS,
  REPORT_LOCALES,
  SCRIPT_STATUSES,
  SCRIPT_TYPES,
  type AlertDocument,
  type BlockReach,
  type ReachedScript,
  type ChannelDocument,
  type ConnectionDocument,
  type ConnectionInitiator,
  type ConnectionObservation,
  type CspViolationObservation,
  type HeadersObservation,
  type IframeObservation,
  type ObservationBatch,
  type PaymentRecipientObservation,
  type ScriptObservation,
  type SensitiveFieldAccessObservation,
  type ChannelTestResult,
  type CreatedOrganization,
  type DomainVerificationView,
  type OrganizationDocument,
  type PaymentPageDocument,
  type PolicyConditions,
  type PolicyDocument,
  type PolicyMatch,
  type RecipientView,
  type ReportScheduleResource,
  type ReportSnapshotDocument,
  type RuleDocument,
  type ScriptDocument,
  type ScriptRecommendationView,
  type ScriptReview,
  type SdkConfigView,
  type StoreDocument,
} from '@pss/contracts';
import type { OrganizationUsage } from '../organizations/organization-usage';
import type { StoreStatus as StoreStatusReader } from '../stores/store-status';
import { orNull, type JsonSchema } from './json-schema';

/**
 * The response bodies of the API as JSON Schema components, each written against the TypeScript type the code
 * returns: `shape<T>()` demands one schema per field the API shows of T (every key, no other key, bookkeeping
 * `_…` fields excluded), so a field added to or removed from a read model fails the typecheck until its schema
 * follows. Required fields are all of them but those named optional. Objects stay open (`additionalProperties`
 * unset): a new field is not a breaking change for clients.
 */
export type Shown<T> = { [K in keyof T as K extends `_${string}` ? never : K]-?: JsonSchema };
/** What the API shows of a read-model document: `_id` is `id` (libs/contracts resource.ts). */
export type Resource<D> = Omit<D, '_id'> & { id: string };

export function shape<T>(description: string, properties: Shown<T>, optional: readonly (keyof Shown<T> & string)[] = []): JsonSchema {
  return { type: 'object', description, required: Object.keys(properties).filter((key) => !(optional as readonly string[]).includes(key)), properties };
}

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
export const uuid: JsonSchema = { type: 'string', format: 'uuid' };
export const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
export const text: JsonSchema = { type: 'string' };
export const integer: JsonSchema = { type: 'integer' };
export const count: JsonSchema = { type: 'integer', minimum: 0 };
export const bool: JsonSchema = { type: 'boolean' };
export const strings: JsonSchema = { type: 'array', items: text };
export const oneOf = (values: readonly string[]): JsonSchema => ({ type: 'string', enum: [...values] });
export const anyObject: JsonSchema = { type: 'object' };
const idDeleted = (description: string): JsonSchema => ({
  type: 'object',
  description,
  required: ['id', 'deleted'],
  properties: { id: uuid, deleted: { const: true } },
});

const SdkConfig = shape<SdkConfigView>('SDK configuration of a store.', {
  mode: oneOf(['monitor', 'block']),
  calibration_seconds: { type: 'integer', minimum: 10, maximum: 120 },
  overlay_check_interval_ms: { type: 'integer', minimum: 500, maximum: 60000 },
  installation_order_policy: oneOf(['warn', 'silent']),
  payment_methods: strings,
  sensitive_fields: orNull(strings),
  expected_iframe_origins: strings,
  allowed_service_workers: strings,
  gtm_containers: strings,
  developer_mode: bool,
  release_channel: oneOf(['stable', 'latest']),
  updated_at: dateTime,
});

const Recipient = shape<RecipientView>('A pinned payment recipient; the raw key is never returned.', {
  id: uuid,
  method: text,
  key_masked: text,
  key_hash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  label: text,
  active: bool,
  created_at: dateTime,
});

const DomainVerification = shape<DomainVerificationView>('The DNS TXT record that proves the domain: publish `value` at `record`, then POST /stores/{id}/verify-domain.', {
  record: { type: 'string', description: '_pss-challenge.<domain>' },
  value: { type: 'string', pattern: '^pss-verify=[0-9a-f]{32}$' },
  verified_at: orNull(dateTime),
});

const Store = shape<Resource<StoreDocument>>('A store.', {
  id: uuid,
  org_id: uuid,
  name: { type: 'string', maxLength: 120 },
  domain: text,
  environment: { ...oneOf(STORE_ENVIRONMENTS), description: 'staging: a store to test on (local hosts allowed); its evidence is not production evidence' },
  country: { type: 'string', minLength: 2, maxLength: 2 },
  timezone: text,
  status: oneOf(['active', 'suspended', 'deleted']),
  sdk_key: { type: 'string', pattern: '^pk_live_[0-9a-f]{32}$' },
  safe_slug: orNull(text),
  emergency_contact: orNull(text),
  created_at: dateTime,
  updated_at: dateTime,
  sdk_config: orNull(ref('SdkConfig')),
  recipients: { type: 'array', items: ref('Recipient') },
  domain_claim: {
    ...oneOf(DOMAIN_CLAIMS),
    description: 'unverified: other organizations may claim the domain too; verified: proven by DNS, the domain is this store\'s alone; lost: another store verified the domain, and this store\'s SDK key is refused',
  },
  domain_verification: { ...orNull(ref('DomainVerification')), description: 'null for staging stores' },
});

const PaymentPage = shape<Resource<Omit<PaymentPageDocument, 'org_id'>>>('A payment page of a store.', {
  id: uuid,
  store_id: uuid,
  url_pattern: text,
  url: text,
  domain: text,
  is_payment_page: bool,
  mode: text,
  payment_methods: strings,
  status: text,
  created_at: dateTime,
});

const Snippets = shape<Record<'html' | 'nextjs' | 'nuxt' | 'wordpress', string>>('Ready-to-paste install snippets embedding the SDK key.', {
  html: text,
  nextjs: text,
  nuxt: text,
  wordpress: text,
});

const CreatedStore: JsonSchema = {
  description: 'A store as created: with its payment pages and install snippets.',
  allOf: [ref('Store'), { type: 'object', required: ['pages', 'snippets'], properties: { pages: { type: 'array', items: ref('PaymentPage') }, snippets: ref('Snippets') } }],
};

const RotatedKey = shape<{ id: string; sdk_key: string; previous_key_valid_until: string; snippets: unknown }>(
  'The new SDK key; the previous one stays valid 24 hours.',
  { id: uuid, sdk_key: { type: 'string', pattern: '^pk_live_[0-9a-f]{32}$' }, previous_key_valid_until: dateTime, snippets: ref('Snippets') },
);

const SuspendedStore = shape<{ id: string; status: 'suspended' }>('The store, suspended (its data is kept).', { id: uuid, status: { const: 'suspended' } });

const StoreStatus = shape<Awaited<ReturnType<StoreStatusReader['of']>>>('Is the SDK installed and reporting, and what needs attention.', {
  store_id: uuid,
  status: oneOf(['active', 'suspended', 'deleted']),
  sdk: {
    type: 'object',
    required: ['installed', 'paused', 'last_event_at', 'silent', 'events_total'],
    properties: { installed: bool, paused: bool, last_event_at: orNull(dateTime), silent: bool, events_total: count },
  },
  scripts: { type: 'object', required: ['total', 'needs_review', 'authorized', 'blocked'], properties: { total: count, needs_review: count, authorized: count, blocked: count } },
  alerts: { type: 'object', required: ['open'], properties: { open: count } },
  csp: {
    type: 'object',
    description: "The Content-Security-Policy headers the store's pages were last seen sending (the SDK reads them), against the policy its inventory writes now (GET /stores/{id}/csp).",
    required: ['stale', 'deployed'],
    properties: {
      stale: { ...bool, description: 'A deployed policy stops a script the current policy lets run, or lets run one it stops: deploy the current policy again.' },
      deployed: {
        type: 'array',
        items: {
          type: 'object',
          required: ['page', 'header', 'observed_at', 'stale', 'blocks_authorized', 'allows_unauthorized'],
          properties: {
            page: { ...text, description: "The page's path." },
            header: oneOf(['Content-Security-Policy', 'Content-Security-Policy-Report-Only']),
            observed_at: dateTime,
            stale: bool,
            blocks_authorized: {
              type: 'array',
              description: 'Scripts the current policy lets run that this one stops.',
              items: { type: 'object', required: ['script_id', 'src'], properties: { script_id: uuid, src: text } },
            },
            allows_unauthorized: {
              type: 'array',
              description: 'Scripts the current policy stops that this one lets run, with their status.',
              items: { type: 'object', required: ['script_id', 'src', 'status'], properties: { script_id: uuid, src: text, status: oneOf(SCRIPT_STATUSES) } },
            },
          },
        },
      },
    },
  },
});

const namedHeader = (name: readonly string[]): JsonSchema => ({ type: 'object', required: ['header', 'value'], properties: { header: oneOf(name), value: text } });

/** GET /stores/{id}/csp (issue 35): an extension of the spec's interface, docs/csp.md. */
const StoreCsp: JsonSchema = {
  type: 'object',
  description: "A Content-Security-Policy written from the store's inventory, its dry run over the last 30 days, and integrity attributes ready to paste.",
  required: ['store_id', 'page_id', 'mode', 'header', 'value', 'reporting_endpoints', 'dry_run', 'integrity'],
  properties: {
    store_id: uuid,
    page_id: orNull(uuid),
    mode: oneOf(['report-only', 'enforce']),
    header: { ...oneOf(['Content-Security-Policy-Report-Only', 'Content-Security-Policy']), description: "The header's name." },
    value: { ...text, description: 'The policy.' },
    reporting_endpoints: { ...namedHeader(['Reporting-Endpoints']), description: 'Sent beside the policy: where report-to sends reports.' },
    dry_run: {
      type: 'object',
      required: ['since', 'would_break'],
      properties: {
        since: dateTime,
        would_break: {
          type: 'array',
          description: 'Scripts seen since `since` that the policy stops, with the sightings and sessions they were in.',
          items: {
            type: 'object',
            required: ['script_id', 'src', 'reason', 'sightings', 'sessions', 'last_seen_at'],
            properties: { script_id: uuid, src: text, reason: text, sightings: count, sessions: count, last_seen_at: dateTime },
          },
        },
      },
    },
    integrity: {
      type: 'object',
      required: ['unchanged_days', 'scripts', 'integrity_policy'],
      properties: {
        unchanged_days: count,
        scripts: {
          type: 'array',
          items: { type: 'object', required: ['script_id', 'src', 'integrity', 'tag'], properties: { script_id: uuid, src: text, integrity: text, tag: text } },
        },
        integrity_policy: { ...orNull(namedHeader(['Integrity-Policy'])), description: 'Only when every authorized external script has an integrity attribute.' },
      },
    },
  },
};

const Rule = shape<Resource<RuleDocument>>('A block or allow rule of a store.', {
  id: uuid,
  org_id: uuid,
  store_id: uuid,
  type: oneOf(['block', 'allow']),
  target: oneOf(['domain', 'url', 'hash']),
  value: text,
  label: text,
  active: bool,
  created_at: dateTime,
  updated_at: dateTime,
});

const Connection = shape<Resource<ConnectionDocument>>('An origin a store\'s payment pages sent requests to: only the origin is ever reported.', {
  id: uuid,
  org_id: uuid,
  store_id: uuid,
  origin: { type: 'string', maxLength: MAX_ORIGIN_LENGTH, description: 'scheme://host[:port], as browsers write it.' },
  via: { type: 'array', items: oneOf(CONNECTION_VIAS), description: 'How the pages reached it, in the order first seen.' },
  pages: { type: 'array', maxItems: MAX_CONNECTION_PAGES, items: text, description: 'The page paths it was seen from, in the order first seen.' },
  initiators: {
    type: 'array',
    maxItems: MAX_CONNECTION_INITIATORS,
    description: 'The scripts seen on the stack of its requests, in the order first seen.',
    items: shape<ConnectionInitiator>('A script that initiated a request to the origin.', { script_id: uuid, src: text }),
  },
  first_seen_at: dateTime,
  last_seen_at: { ...dateTime, description: 'Within 5 minutes: a page\'s connections are recorded at most once per 5 minutes.' },
});

const Review = shape<ScriptReview>('A decision on a script.', {
  action: oneOf(POLICY_ACTIONS),
  method: oneOf(AUTHORIZATION_METHODS),
  by: text,
  justification: orNull(text),
  at: dateTime,
});

const prevalenceSeen: JsonSchema = {
  ...orNull({ type: 'number', minimum: 0, maximum: 1 }),
  description: "The prevalence (docs/policies.md) the deciding policy's `prevalence_min` was checked against; null for any other decision.",
};

const Recommendation = shape<ScriptRecommendationView>(
  'What a `recommend` policy would decide.',
  {
    policy_id: uuid,
    policy_version: integer,
    action: oneOf(POLICY_ACTIONS),
    justification: text,
    prevalence_seen: prevalenceSeen,
    at: dateTime,
  },
  ['prevalence_seen'],
);

const ReachedScriptSchema = shape<ReachedScript>('Another script of the store that a block rule covers.', {
  id: uuid,
  src: text,
  status: oneOf(SCRIPT_STATUSES),
});
const reached = (description: string): JsonSchema => ({ type: 'array', maxItems: 100, description, items: ref('ReachedScript') });

const Script = shape<Resource<ScriptDocument> & { rule: unknown } & BlockReach>(
  'A script seen on a store\'s payment pages. `rule`, `also_blocks` and `spared` are present in the block response only.',
  {
    id: uuid,
    org_id: uuid,
    store_id: uuid,
    src: text,
    type: orNull(oneOf(SCRIPT_TYPES)),
    category: orNull(text),
    status: oneOf(SCRIPT_STATUSES),
    integrity_status: orNull(oneOf(INTEGRITY_STATUSES)),
    current_hash: orNull(text),
    authorized_hash: orNull(text),
    sri_hash: orNull(text),
    hash_source: orNull(text),
    integrity_attr: orNull(bool),
    size_bytes: orNull(integer),
    vendor_id: orNull(text),
    gtm_container: orNull(text),
    authorization_method: orNull(oneOf(AUTHORIZATION_METHODS)),
    authorized_by: orNull(text),
    justification: orNull(text),
    policy_id: orNull(uuid),
    policy_version: orNull(integer),
    prevalence_seen: prevalenceSeen,
    reviewed_at: orNull(dateTime),
    expires_at: orNull(dateTime),
    review_due_at: orNull(dateTime),
    first_seen_at: dateTime,
    last_seen_at: dateTime,
    last_verified_at: orNull(dateTime),
    last_hash_change_at: orNull(dateTime),
    sightings: count,
    sessions_count: count,
    host: orNull(text),
    inline: bool,
    reviews: { type: 'array', items: ref('ScriptReview') },
    recommendation: orNull(ref('ScriptRecommendation')),
    sensitive_fields_accessed: strings,
    sri_refused: { ...bool, description: "The browser refuses to run the script: what is served (`current_hash`) is not what the page's integrity attribute pins (`sri_hash`)." },
    sri_refused_at: orNull(dateTime),
    rule: orNull(ref('Rule')),
    also_blocks: reached("The store's other scripts the block rule stops too (a domain rule covers the host and its subdomains), the most recently seen first; empty for a rule by URL or by hash."),
    spared: reached('The store\'s other scripts the block rule covers that keep running: authorized ones (an authorized URL is an allow) and those an allow rule lets through.'),
  },
  ['rule', 'also_blocks', 'spared', 'reviews', 'recommendation', 'sensitive_fields_accessed', 'sightings', 'sessions_count', 'host', 'inline', 'sri_refused', 'sri_refused_at', 'prevalence_seen'],
);

const PolicyMatchSchema = shape<PolicyMatch>(
  'Which scripts a policy looks at.',
  { origin: text, domain: strings, path_glob: strings, category: strings, vendor_id: strings },
  ['origin', 'domain', 'path_glob', 'category', 'vendor_id'],
);

const PolicyConditionsSchema = shape<PolicyConditions>(
  'What must also hold of a matched script.',
  {
    same_origin: bool,
    prevalence_min: { type: 'number' },
    no_sensitive_field_access: bool,
    not_in_threat_list: bool,
    in_threat_list: bool,
    store_provider: bool,
    max_size_kb: { type: 'number' },
    has_integrity_attr: bool,
  },
  ['same_origin', 'prevalence_min', 'no_sensitive_field_access', 'not_in_threat_list', 'in_threat_list', 'store_provider', 'max_size_kb', 'has_integrity_attr'],
);

const Policy = shape<Resource<PolicyDocument>>('An approval policy.', {
  id: uuid,
  org_id: uuid,
  store_id: orNull(uuid),
  name: text,
  description: orNull(text),
  version: { type: 'integer', minimum: 1 },
  active: bool,
  mode: oneOf(POLICY_MODES),
  priority: integer,
  match: ref('PolicyMatch'),
  conditions: ref('PolicyConditions'),
  action: oneOf(POLICY_ACTIONS),
  justification_template: orNull(text),
  expires_days: orNull(integer),
  is_default: bool,
  created_at: dateTime,
  updated_at: dateTime,
});

const PolicySimulation: JsonSchema = {
  type: 'object',
  description: 'What the policy would decide on the store\'s scripts, nothing changed.',
  required: ['policy_id', 'store_id', 'would_authorize', 'would_block', 'would_review', 'unchanged'],
  properties: {
    policy_id: uuid,
    store_id: uuid,
    would_authorize: { type: 'array', items: anyObject },
    would_block: { type: 'array', items: anyObject },
    would_review: { type: 'array', items: anyObject },
    unchanged: count,
  },
};

const PolicyApplication: JsonSchema = {
  type: 'object',
  description: 'How many of the store\'s scripts the policy decided on.',
  required: ['policy_id', 'store_id', 'authorized', 'blocked', 'needs_review', 'unchanged'],
  properties: { policy_id: uuid, store_id: uuid, authorized: count, blocked: count, needs_review: count, unchanged: count },
};

const Alert = shape<Resource<AlertDocument>>('An alert.', {
  id: uuid,
  org_id: uuid,
  store_id: uuid,
  type: oneOf(ALERT_TYPES),
  change_type: orNull(text),
  severity: oneOf(ALERT_SEVERITIES),
  status: oneOf(ALERT_STATUSES),
  source: orNull(text),
  page: orNull(text),
  details: orNull(anyObject),
  fingerprint: orNull(text),
  occurrences: count,
  sessions_count: count,
  first_seen_at: orNull(dateTime),
  last_seen_at: orNull(dateTime),
  resolved_at: orNull(dateTime),
  resolved_by_label: orNull(text),
  note: orNull(text),
  snoozed_until: orNull(dateTime),
  auto_resolved: bool,
  created_at: dateTime,
});

const ReportSnapshot = shape<Resource<ReportSnapshotDocument> & { generated: boolean; data: unknown }>(
  'A PCI report snapshot; `data` (docs/report-data.schema.json) and `generated` come with the JSON format.',
  {
    id: uuid,
    org_id: uuid,
    store_id: uuid,
    kind: oneOf(REPORT_KINDS),
    period_start: dateTime,
    period_end: dateTime,
    locale: oneOf(REPORT_LOCALES),
    schema_version: integer,
    sha256: orNull(text),
    previous_sha256: orNull(text),
    sequence: { ...integer, minimum: 1, description: "Its place on the store's evidence chain, from 1: list the chain by it (docs/reports.md)." },
    generated_by: text,
    has_pdf: bool,
    csv_tables: { type: 'array', items: oneOf(REPORT_CSV_TABLES) },
    created_at: dateTime,
    generated: bool,
    data: ref('ReportData'),
  },
  ['generated', 'data', 'previous_sha256'],
);

const counts = (names: string[]): JsonSchema => ({ type: 'object', required: names, properties: Object.fromEntries(names.map((name) => [name, count])) });

/** The top of the report data; docs/report-data.schema.json (checked against this in its test) holds every field. */
const ReportData: JsonSchema = {
  type: 'object',
  description: 'PCI report data, schema_version 2: docs/report-data.schema.json describes every field.',
  required: ['meta', 'scope', 'summary_643', 'summary_1161', 'scripts', 'headers', 'alerts', 'policies', 'periodic_checks', 'data_access'],
  properties: {
    meta: {
      type: 'object',
      required: ['report_id', 'store', 'domain', 'schema_version'],
      properties: { report_id: text, store: anyObject, domain: text, schema_version: { const: 2 } },
    },
    scope: anyObject,
    summary_643: counts(['total', 'authorized', 'blocked', 'needs_review', 'expired']),
    summary_1161: counts(['events', 'alerts_total', 'alerts_open']),
    scripts: { type: 'array', items: anyObject },
    headers: { type: 'array', items: anyObject },
    alerts: { type: 'array', items: anyObject },
    policies: { type: 'array', items: anyObject },
    periodic_checks: { type: 'array', items: anyObject },
    data_access: { type: 'array', items: anyObject },
  },
};

const ReportSchedule = shape<ReportScheduleResource>('The report schedule of a store.', {
  store_id: uuid,
  cadence: oneOf(['weekly', 'monthly']),
  locale: oneOf(REPORT_LOCALES),
  active: bool,
  updated_at: orNull(dateTime),
  updated_by: orNull(text),
});

const DeletedSchedule = shape<{ store_id: string; deleted: true }>('The schedule is deleted.', { store_id: uuid, deleted: { const: true } });

const Webhook = shape<Resource<ChannelDocument>>(
  'A notification channel. The signing secret is never shown but on creation.',
  {
    id: uuid,
    org_id: uuid,
    store_id: orNull(uuid),
    type: oneOf(['webhook', 'slack', 'teams']),
    name: text,
    url: orNull({ type: 'string', format: 'uri' }),
    format: orNull(oneOf(CHANNEL_FORMATS)),
    has_secret: bool,
    events: orNull(strings),
    min_severity: oneOf(ALERT_SEVERITIES),
    active: bool,
    last_used_at: orNull(dateTime),
    created_at: dateTime,
    updated_at: dateTime,
    recipients: strings,
  },
  ['recipients'],
);

const CreatedWebhook: JsonSchema = {
  description: 'The channel as created, with its secret: shown this once.',
  allOf: [ref('Webhook'), { type: 'object', required: ['secret', 'secret_generated'], properties: { secret: text, secret_generated: bool } }],
};

const WebhookTest = shape<ChannelTestResult>('The outcome of the one test delivery (200 even when it failed).', {
  id: uuid,
  delivered: bool,
  error: orNull(text),
});

const organizationFields: Shown<Resource<OrganizationDocument>> = {
  id: uuid,
  name: { type: 'string', minLength: 2, maxLength: 120 },
  plan: oneOf(PLAN_NAMES),
  billing_mode: oneOf(BILLING_MODES),
  parent_org_id: orNull(uuid),
  owner_email: orNull({ type: 'string', format: 'email' }),
  partner_settings: anyObject,
  created_at: dateTime,
};

const Organization = shape<Resource<OrganizationDocument>>('An organization.', organizationFields);

const CreatedOrganizationSchema = shape<CreatedOrganization>('The child organization as created, with the outcome of the owner\'s invitation.', {
  ...organizationFields,
  owner_invite: oneOf(OWNER_INVITE_OUTCOMES),
});

const Usage = shape<OrganizationUsage>('What an organization uses against its plan this calendar month (UTC).', {
  org_id: uuid,
  plan: oneOf(PLAN_NAMES),
  billing_mode: oneOf(BILLING_MODES),
  period: { type: 'object', required: ['start', 'end'], properties: { start: dateTime, end: dateTime } },
  stores: { type: 'object', required: ['used', 'allowed'], properties: { used: count, allowed: orNull(count) } },
  scripts: { type: 'object', required: ['total'], properties: { total: count } },
  events: { type: 'object', required: ['this_month'], properties: { this_month: count } },
});

const SdkBatchReceipt = shape<{ accepted: number; rejected: number; rejections: unknown }>('What the service kept of an SDK batch.', {
  accepted: count,
  rejected: count,
  rejections: { type: 'array', items: anyObject },
});

/** What the SDK reports (DESIGN.md section 5): each observation is checked on its own, a bad one only rejected. */
const observations = [
  shape<ScriptObservation>(
    'A script on the page.',
    {
      kind: { const: 'script' },
      src: { type: 'string', format: 'uri' },
      inline: bool,
      hash: { type: 'string', pattern: '^sha(256|384|512)-' },
      hash_source: oneOf(['sdk', 'sri']),
      size_bytes: count,
      integrity_attr: bool,
      gtm_container: text,
      blocked: bool,
      refused_integrity: {
        type: 'string',
        maxLength: 4 * 95 + 3,
        pattern: '^sha(256|384|512)-[A-Za-z0-9+/]+={0,2}( sha(256|384|512)-[A-Za-z0-9+/]+={0,2}){0,3}$',
        description: "The page's integrity tokens the browser checked (one algorithm), none of them the hash of the bytes served: the browser refused to run the script.",
      },
    },
    ['src', 'hash', 'hash_source', 'size_bytes', 'integrity_attr', 'gtm_container', 'blocked', 'refused_integrity'],
  ),
  shape<HeadersObservation>('The security headers of the page.', { kind: { const: 'headers' }, headers: { type: 'object', additionalProperties: text } }),
  shape<CspViolationObservation>('A CSP violation the SDK saw.', { kind: { const: 'csp_violation' }, directive: text, blocked_uri: text, source_file: text }, ['source_file']),
  shape<SensitiveFieldAccessObservation>(
    'A script touching a sensitive field.',
    {
      kind: { const: 'sensitive_field_access' },
      src: text,
      field: text,
      callers: { type: 'array', maxItems: MAX_CALLERS, items: { type: 'string', format: 'uri' }, description: 'The scripts that called `src`, innermost first.' },
    },
    ['callers'],
  ),
  shape<IframeObservation>('An iframe on the page.', { kind: { const: 'iframe' }, origin: text }),
  shape<ConnectionObservation>(
    'An origin the page sent a request to (only the origin); at most MAX_CONNECTIONS_PER_BATCH of a batch are taken.',
    {
      kind: { const: 'connection' },
      origin: { type: 'string', maxLength: MAX_ORIGIN_LENGTH, description: 'scheme://host[:port] (http, https, ws, wss), as browsers write it.' },
      via: oneOf(CONNECTION_VIAS),
      initiator: { type: 'string', format: 'uri', description: 'The script on the stack of the request, when the SDK saw one.' },
    },
    ['initiator'],
  ),
  shape<PaymentRecipientObservation>('A payment recipient shown on the page (its key hashed).', {
    kind: { const: 'payment_recipient' },
    method: text,
    key_hash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  }),
];

const SdkBatch = shape<ObservationBatch>('A batch of SDK observations from one page view.', {
  page_url: { type: 'string', format: 'uri' },
  session_id: text,
  sdk_version: text,
  observations: { type: 'array', maxItems: MAX_OBSERVATIONS_PER_BATCH, items: { oneOf: observations } },
});

export const RESOURCE_SCHEMAS: Record<string, JsonSchema> = {
  SdkConfig,
  Recipient,
  DomainVerification,
  Store,
  PaymentPage,
  Snippets,
  CreatedStore,
  RotatedKey,
  SuspendedStore,
  StoreStatus,
  StoreCsp,
  Rule,
  DeletedRule: idDeleted('The rule is deleted.'),
  ScriptReview: Review,
  ScriptRecommendation: Recommendation,
  ReachedScript: ReachedScriptSchema,
  Script,
  Connection,
  PolicyMatch: PolicyMatchSchema,
  PolicyConditions: PolicyConditionsSchema,
  Policy,
  DeletedPolicy: idDeleted('The policy is deleted.'),
  PolicySimulation,
  PolicyApplication,
  Alert,
  ReportData,
  ReportSnapshot,
  ReportSchedule,
  DeletedSchedule,
  Webhook,
  CreatedWebhook,
  DeletedWebhook: idDeleted('The channel is deleted.'),
  WebhookTest,
  Organization,
  CreatedOrganization: CreatedOrganizationSchema,
  Usage,
  SdkBatchReceipt,
  SdkBatch,
};

/** `{data, next_cursor}` of the named component. */
export const listOf = (name: string): JsonSchema => ({
  type: 'object',
  required: ['data', 'next_cursor'],
  properties: { data: { type: 'array', items: ref(name) }, next_cursor: orNull(text) },
});

/** `{data}` of the named component: the lists that are never paged. */
export const allOf = (name: string): JsonSchema => ({ type: 'object', required: ['data'], properties: { data: { type: 'array', items: ref(name) } } });

export { ref as schemaRef };
