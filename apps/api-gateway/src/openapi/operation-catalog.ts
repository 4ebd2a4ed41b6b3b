import type { JsonSchema } from './json-schema';
import { allOf, listOf, schemaRef } from './resource-schemas';

/** What one operation answers beyond what its route metadata tells: its summary, success bodies and own errors. */
export interface OperationAnswers {
  summary: string;
  /** The success answers by status: a JSON body's schema, or content by media type, or null for no body. */
  success: Record<string, JsonSchema | { content: Record<string, JsonSchema> } | null>;
  /** Error statuses this operation answers on top of those every operation of its kind does. */
  errors?: readonly number[];
}

const json = (name: string) => schemaRef(name);
const binary = (type: string) => ({ [type]: { type: 'string', contentEncoding: 'binary' } });
/** The report formats: the snapshot as JSON, a CSV table streamed, or the PDF (bytes until the file is stored). */
const REPORT_FORMATS = {
  '200': { content: { 'application/json': json('ReportSnapshot'), 'text/csv': { type: 'string' }, ...binary('application/pdf') } },
  '302': null,
};
const javascript = { content: { 'application/javascript': { type: 'string' } } };

/**
 * Every operation the gateway serves, by operation id (controller name without `Controller`, then handler).
 * The document is built from this and the routes; its test fails when a route has no entry here.
 */
export const OPERATION_CATALOG: Record<string, OperationAnswers> = {
  'OpenApi.openapi': { summary: 'This OpenAPI document', success: { '200': { type: 'object' } } },

  'Stores.list': { summary: 'List stores', success: { '200': listOf('Store') } },
  'Stores.create': { summary: 'Create a store', success: { '201': json('CreatedStore') } },
  'Stores.get': { summary: 'Get a store', success: { '200': json('Store') } },
  'Stores.update': { summary: 'Update a store', success: { '200': json('Store') } },
  'Stores.suspend': { summary: 'Suspend a store (its data is kept)', success: { '200': json('SuspendedStore') } },
  'Stores.rotateKey': { summary: 'Rotate the SDK key of a store', success: { '200': json('RotatedKey') } },
  'Stores.verifyDomain': {
    summary: "Prove the store's domain by its DNS TXT record; other organizations' unverified claims on it end",
    success: { '200': json('Store') },
    errors: [422, 503],
  },
  'Stores.listPages': { summary: 'List the payment pages of a store', success: { '200': allOf('PaymentPage') } },
  'Stores.addPages': {
    summary: 'Add payment pages to a store',
    success: { '200': { description: 'The page when one was sent, `{data}` when several were.', oneOf: [json('PaymentPage'), allOf('PaymentPage')] } },
  },
  'Stores.storeStatus': { summary: 'SDK installation and what needs attention in a store', success: { '200': json('StoreStatus') } },
  'StoreCsp.csp': { summary: "A Content-Security-Policy and SRI attributes written from the store's inventory, with a dry run", success: { '200': json('StoreCsp') } },

  'Scripts.list': { summary: 'List the script inventory', success: { '200': listOf('Script') } },
  'Scripts.get': { summary: 'Get a script with its review history', success: { '200': json('Script') } },
  'Scripts.authorize': { summary: 'Authorize a script', success: { '200': json('Script') } },
  'Scripts.block': { summary: 'Block a script (creates or updates a block rule)', success: { '200': json('Script') } },

  'Connections.list': { summary: 'List the origins the payment pages send data to', success: { '200': listOf('Connection') } },

  'Rules.list': { summary: 'List rules', success: { '200': listOf('Rule') } },
  'Rules.create': { summary: 'Create a rule', success: { '201': json('Rule') } },
  'Rules.update': { summary: 'Update a rule', success: { '200': json('Rule') } },
  'Rules.delete': { summary: 'Delete a rule', success: { '200': json('DeletedRule') } },
  'Rules.deleteByQuery': { summary: 'Delete a rule named in the query', success: { '200': json('DeletedRule') } },

  'Policies.list': { summary: 'List approval policies', success: { '200': listOf('Policy') } },
  'Policies.create': { summary: 'Create an approval policy', success: { '201': json('Policy') } },
  'Policies.update': { summary: 'Update an approval policy', success: { '200': json('Policy') } },
  'Policies.delete': { summary: 'Delete an approval policy', success: { '200': json('DeletedPolicy') } },
  'Policies.simulate': { summary: 'What a policy would decide on a store, nothing changed', success: { '200': json('PolicySimulation') } },
  'Policies.apply': { summary: 'Apply a policy to a store\'s scripts', success: { '200': json('PolicyApplication') } },

  'Alerts.list': { summary: 'List alerts', success: { '200': listOf('Alert') } },
  'Alerts.get': { summary: 'Get an alert', success: { '200': json('Alert') } },
  'Alerts.update': { summary: 'Resolve or reopen an alert', success: { '200': json('Alert') } },

  'Reports.report': { summary: 'The PCI report of a store and period (JSON, PDF or CSV)', success: REPORT_FORMATS },
  'Reports.snapshotsList': { summary: 'List report snapshots', success: { '200': listOf('ReportSnapshot') } },
  'Reports.snapshot': { summary: 'Get a report snapshot (JSON, PDF or CSV)', success: REPORT_FORMATS, errors: [410] },
  'Reports.schedules': { summary: 'List report schedules', success: { '200': allOf('ReportSchedule') } },
  'Reports.setSchedule': { summary: 'Set the report schedule of a store', success: { '200': json('ReportSchedule') } },
  'Reports.deleteSchedule': { summary: 'Delete the report schedule of a store', success: { '200': json('DeletedSchedule') } },

  'Webhooks.list': { summary: 'List notification channels', success: { '200': listOf('Webhook') } },
  'Webhooks.create': { summary: 'Create a notification channel', success: { '201': json('CreatedWebhook') } },
  'Webhooks.get': { summary: 'Get a notification channel', success: { '200': json('Webhook') } },
  'Webhooks.update': { summary: 'Update a notification channel', success: { '200': json('Webhook') } },
  'Webhooks.delete': { summary: 'Delete a notification channel', success: { '200': json('DeletedWebhook') } },
  'Webhooks.test': { summary: 'Send a signed test event', success: { '200': json('WebhookTest') } },

  'Organizations.list': { summary: 'List child organizations', success: { '200': listOf('Organization') } },
  'Organizations.create': { summary: 'Create a child organization', success: { '201': json('CreatedOrganization') } },
  'Organizations.usage': { summary: 'Usage of an organization against its plan', success: { '200': json('Usage') } },

  'Sdk.preflight': { summary: 'CORS preflight of the SDK endpoints', success: { '204': null } },
  'Sdk.script': { summary: "The SDK: for a key, the store's channel with its config inside", success: { '200': javascript, '304': null } },
  'Sdk.versioned': { summary: 'One SDK version, immutable', success: { '200': javascript, '304': null }, errors: [404] },
  'Sdk.versions': {
    summary: 'SDK channels and versions with their hashes',
    success: {
      '200': {
        type: 'object',
        required: ['channels', 'versions', 'loader'],
        properties: {
          channels: { type: 'object', required: ['stable', 'latest'], properties: { stable: { type: 'string' }, latest: { type: 'string' } } },
          versions: { type: 'array', items: { type: 'object' } },
          loader: {
            type: 'object',
            description: "The install snippets' inline loader: the source a shop's Content-Security-Policy `script-src` allows it with (the same for every store).",
            required: ['csp_hash'],
            properties: { csp_hash: { type: 'string', pattern: '^sha256-[A-Za-z0-9+/]{43}=$' } },
          },
        },
      },
    },
  },
  'Sdk.getConfig': { summary: 'The configuration the SDK of a store runs with', success: { '200': { type: 'object' }, '304': null }, errors: [401, 403, 429] },
  'Sdk.postEvents': { summary: 'A batch of SDK observations', success: { '202': json('SdkBatchReceipt') }, errors: [400, 401, 403, 413, 415, 429, 503] },
  'Sdk.postCspReports': { summary: 'Browser CSP violation reports', success: { '202': json('SdkBatchReceipt') }, errors: [400, 401, 403, 413, 415, 429, 503] },
};

/** One line per tag (the controllers' names). */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  OpenApi: 'This document.',
  Stores: 'Stores, their SDK configuration, pinned recipients and payment pages.',
  Scripts: 'The script inventory of the payment pages, and decisions on scripts.',
  Connections: 'The origins the payment pages send data to, and the scripts that initiate them.',
  Rules: 'Block and allow rules.',
  Policies: 'Approval policies: automatic or recommended decisions on scripts.',
  Alerts: 'Alerts and their resolution.',
  Reports: 'PCI DSS 6.4.3 and 11.6.1 reports, snapshots and schedules.',
  Webhooks: 'Notification channels (webhook, Slack, Teams).',
  Organizations: 'Child organizations (partners) and usage.',
  Sdk: 'What the SDK on a checkout page calls: its script, its configuration, its reports. Authenticated by the store\'s SDK key.',
};
