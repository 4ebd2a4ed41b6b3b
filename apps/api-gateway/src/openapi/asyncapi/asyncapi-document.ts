import { ALERT_OCCURRED, ALERT_STATUS_CHANGED, ALERT_TOPICS, COMMANDS, INVENTORY_TOPICS as T, REPORT_TOPICS, SDK_CONFIG_TOPICS } from '@pss/contracts';
import type { JsonSchema } from '../json-schema';
import { RESOURCE_SCHEMAS } from '../resource-schemas';
import { ALERT_OCCURRED_SCHEMA, ALERT_STATUS_CHANGED_SCHEMA, ENVELOPE_SCHEMA, INVENTORY_FACT_SCHEMAS, REPORT_READY_SCHEMA, SCHEDULE_CHANGED_SCHEMA } from './fact-schemas';
import { exampleOf } from '../schema-example';

export interface Topic {
  address: string;
  source: 'inventory' | 'alerts' | 'reports';
  data: JsonSchema;
  /** Consumer groups reading it. */
  readers: string[];
}

/** The alert topics carry the Alert resource; what each one means is said here, as its schema is the resource's. */
const ALERT_SUMMARIES: Record<(typeof ALERT_TOPICS)[keyof typeof ALERT_TOPICS], string> = {
  [ALERT_TOPICS.created]: 'An alert opened (first occurrence): the Alert resource.',
  [ALERT_TOPICS.integrityChanged]: 'A SCRIPT_INTEGRITY_MISMATCH alert opened: the Alert resource.',
  [ALERT_TOPICS.headerChanged]: 'A HEADER_CHANGED alert opened: the Alert resource.',
  [ALERT_TOPICS.sdkSilent]: 'An SDK_SILENT alert opened: the Alert resource.',
  [ALERT_TOPICS.resolved]: 'An SDK_SILENT alert closed itself (never for PATCH): the Alert resource, resolved.',
};

const INVENTORY_FACTS = Object.values(T);

/** The topics each consumer group subscribes to (its `@EventPattern`s). */
export const CONSUMER_GROUPS: Record<string, readonly string[]> = {
  alerts: [
    T.scriptDetected,
    T.scriptHashChanged,
    T.scriptIntegrityRefused,
    T.headersChanged,
    T.cspViolation,
    T.sensitiveFieldAccessed,
    T.iframeUnexpected,
    T.recipientMismatched,
    T.connectionDetected,
    T.sdkActivity,
    T.storeCreated,
    T.storeSuspended,
  ],
  // Its own two script facts: the automatic policy decisions a prompt decision did not already take.
  inventory: [REPORT_TOPICS.scheduleChanged, T.scriptDetected, T.scriptHashChanged],
  notifier: [...Object.values(ALERT_TOPICS), T.scriptDetected, T.policyApplied, REPORT_TOPICS.ready, T.organizationCreated, T.storeCreated, T.storeSuspended],
  reports: [...INVENTORY_FACTS.filter((topic) => topic !== T.organizationCreated && topic !== T.ruleChanged), ALERT_TOPICS.created, ALERT_TOPICS.resolved, ALERT_STATUS_CHANGED, ALERT_OCCURRED],
  // Every replica reads these in a group of its own (libs/bus ReplicaEvents), not as one service: each keeps its own sdk.js per store.
  'api-gateway': SDK_CONFIG_TOPICS,
};

const readersOf = (address: string): string[] => Object.keys(CONSUMER_GROUPS).filter((group) => CONSUMER_GROUPS[group].includes(address));
const topic = (address: string, source: Topic['source'], data: JsonSchema): Topic => ({ address, source, data, readers: readersOf(address) });
const alertData = (address: keyof typeof ALERT_SUMMARIES): JsonSchema => ({ $ref: '#/components/schemas/Alert', description: ALERT_SUMMARIES[address] });

/** Every integration event, with who reads it: the source of docs/asyncapi.json and of docs/events.md's table. */
export const INTEGRATION_TOPICS: Topic[] = [
  ...INVENTORY_FACTS.map((address) => topic(address, 'inventory', INVENTORY_FACT_SCHEMAS[address])),
  ...Object.values(ALERT_TOPICS).map((address) => topic(address, 'alerts', alertData(address))),
  topic(ALERT_STATUS_CHANGED, 'alerts', ALERT_STATUS_CHANGED_SCHEMA),
  topic(ALERT_OCCURRED, 'alerts', ALERT_OCCURRED_SCHEMA),
  topic(REPORT_TOPICS.ready, 'reports', REPORT_READY_SCHEMA),
  topic(REPORT_TOPICS.scheduleChanged, 'reports', SCHEDULE_CHANGED_SCHEMA),
];

/** The reply of each command, where it is an API resource (docs/events.md lists all of them). */
const REPLIES: Record<string, string> = {
  [COMMANDS.organizationCreate]: 'CreatedOrganization',
  [COMMANDS.storeCreate]: 'CreatedStore',
  [COMMANDS.storeUpdate]: 'Store',
  [COMMANDS.storeSuspend]: 'SuspendedStore',
  [COMMANDS.storeRotateKey]: 'RotatedKey',
  [COMMANDS.storeVerifyDomain]: 'Store',
  [COMMANDS.scriptAuthorize]: 'Script',
  [COMMANDS.scriptBlock]: 'Script',
  [COMMANDS.alertUpdate]: 'Alert',
  [COMMANDS.channelCreate]: 'CreatedWebhook',
  [COMMANDS.channelUpdate]: 'Webhook',
  [COMMANDS.channelTest]: 'WebhookTest',
  [COMMANDS.policyCreate]: 'Policy',
  [COMMANDS.policyUpdate]: 'Policy',
  [COMMANDS.policySimulate]: 'PolicySimulation',
  [COMMANDS.policyApply]: 'PolicyApplication',
  [COMMANDS.ruleCreate]: 'Rule',
  [COMMANDS.ruleUpdate]: 'Rule',
  [COMMANDS.scheduleSet]: 'ReportSchedule',
  [COMMANDS.scheduleDelete]: 'DeletedSchedule',
};

const COMMAND_FAILURE: JsonSchema = {
  type: 'object',
  description: "A handler's failure: the API's error code and message (DESIGN.md section 4).",
  required: ['code', 'message'],
  properties: { code: { type: 'string' }, message: { type: 'string' }, details: { type: 'array', items: { type: 'object' } } },
};

const id = (address: string) => address.replace(/[^A-Za-z0-9]+/g, '_');
const RETENTION_MS = 7 * 24 * 3600 * 1000;
const KAFKA_BINDING_VERSION = '0.5.0';

const eventKey = {
  kafka: {
    key: { type: 'string', description: '`store_id`, else `org_id`: one store\'s events stay in order on one partition.' },
    bindingVersion: KAFKA_BINDING_VERSION,
  },
};

const topicBinding = (address: string) => ({
  kafka: { topic: address, topicConfiguration: { 'cleanup.policy': ['delete'], 'retention.ms': RETENTION_MS }, bindingVersion: KAFKA_BINDING_VERSION },
});

/**
 * The AsyncAPI 3 document of the bus: every integration event (channel, envelope and typed `data`, key, who
 * sends and who receives) and every command as request/reply. docs/asyncapi.json is this, written by its test.
 */
export function buildAsyncApiDocument(version: string) {
  const schemas: Record<string, JsonSchema> = { Envelope: ENVELOPE_SCHEMA, CommandFailure: COMMAND_FAILURE, ...RESOURCE_SCHEMAS };
  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};

  for (const topic of INTEGRATION_TOPICS) {
    const key = id(topic.address);
    schemas[`${key}_data`] = topic.data;
    const payload = { allOf: [{ $ref: '#/components/schemas/Envelope' }, { type: 'object', properties: { type: { const: topic.address }, data: { $ref: `#/components/schemas/${key}_data` } } }] };
    const example = Object.assign({}, exampleOf(ENVELOPE_SCHEMA, schemas), { type: topic.address, source: topic.source, data: exampleOf(topic.data, schemas) });
    messages[key] = { name: topic.address, title: topic.address, summary: String(topic.data.description ?? topic.address), contentType: 'application/json', payload, bindings: eventKey, examples: [{ name: 'example', payload: example }] };
    channels[key] = {
      address: topic.address,
      title: topic.address,
      description: `Integration event from ${topic.source}; read by ${topic.readers.join(', ')}.`,
      messages: { [key]: { $ref: `#/components/messages/${key}` } },
      bindings: topicBinding(topic.address),
    };
    operations[`${key}_publish`] = { action: 'send', title: `${topic.source} publishes ${topic.address}`, channel: { $ref: `#/channels/${key}` }, messages: [{ $ref: `#/channels/${key}/messages/${key}` }] };
    operations[`${key}_consume`] = {
      action: 'receive',
      title: `${topic.readers.join(', ')} consume ${topic.address}`,
      channel: { $ref: `#/channels/${key}` },
      messages: [{ $ref: `#/channels/${key}/messages/${key}` }],
    };
  }

  for (const pattern of Object.values(COMMANDS)) {
    const key = id(pattern);
    const reply = REPLIES[pattern];
    messages[key] = { name: pattern, title: pattern, summary: `The ${pattern} command (docs/events.md lists its payload).`, contentType: 'application/json', payload: { type: 'object' } };
    messages[`${key}_reply`] = {
      name: `${pattern}.reply`,
      title: `${pattern}.reply`,
      summary: 'The handler\'s reply, or its failure.',
      contentType: 'application/json',
      payload: reply ? { oneOf: [{ $ref: `#/components/schemas/${reply}` }, { $ref: '#/components/schemas/CommandFailure' }] } : { type: 'object' },
    };
    channels[key] = { address: pattern, title: pattern, description: `Command requests, handled by ${pattern.split('.')[0]}.`, messages: { [key]: { $ref: `#/components/messages/${key}` } }, bindings: topicBinding(pattern) };
    channels[`${key}_reply`] = {
      address: `${pattern}.reply`,
      title: `${pattern}.reply`,
      description: 'Replies; each sender reads partitions of its own, named in its requests.',
      messages: { [`${key}_reply`]: { $ref: `#/components/messages/${key}_reply` } },
      bindings: topicBinding(`${pattern}.reply`),
    };
    operations[`${key}_handle`] = {
      action: 'receive',
      title: `${pattern.split('.')[0]} handles ${pattern}`,
      channel: { $ref: `#/channels/${key}` },
      messages: [{ $ref: `#/channels/${key}/messages/${key}` }],
      reply: { channel: { $ref: `#/channels/${key}_reply` }, messages: [{ $ref: `#/channels/${key}_reply/messages/${key}_reply` }] },
    };
  }

  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Payment-page script security: bus',
      version,
      description: [
        'Kafka topics of the service (docs/events.md).',
        '',
        '- Integration events: published from the event store by each service\'s publisher with its own durable checkpoint (the event store is the outbox): **at least once**, so deduplicate by the envelope `id`. Key: `store_id`, else `org_id`; order is kept per key (one partition), not across keys. Retention: 7 days (`retention.ms`); the event store keeps everything and a publisher can publish again from an earlier checkpoint.',
        '- Commands: request/reply. The request topic is the pattern, replies come on `<pattern>.reply` to a partition the sender names; a sender that gets no reply in time answers `service_unavailable`. Commands are not retried by the bus: at most once per request.',
      ].join('\n'),
    },
    defaultContentType: 'application/json',
    servers: { kafka: { host: 'kafka:9092', protocol: 'kafka', description: 'KAFKA_BROKERS of the deployment.' } },
    channels,
    operations,
    components: { schemas, messages },
  };
}
