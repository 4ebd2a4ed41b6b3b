import type { Components, Schema } from './schema-values';

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema: Schema;
}

/** One operation to fuzz: where it lives, what it takes, and whether it needs a bearer token. */
export interface Operation {
  method: string;
  /** The full path template, e.g. `/api/v1/stores/{id}`. */
  path: string;
  parameters: Parameter[];
  body?: Schema;
  authenticated: boolean;
}

interface OpenApiOperation {
  parameters?: Array<{ name: string; in: string; schema?: Schema }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
  'x-required-scope'?: string;
}

export interface OpenApiDocument {
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Components };
}

/** Every operation the OpenAPI document describes, as the service serves it (the server URL prefixed). */
export function documentedOperations(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) => {
    // A path may name its own server (the SDK routes, from the root): its operations are the item's other keys.
    const { servers, ...operations } = item as Record<string, OpenApiOperation> & { servers?: Array<{ url: string }> };
    const prefix = (servers ?? document.servers)[0]?.url.replace(/\/$/, '') ?? '';
    return Object.entries(operations).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path: `${prefix}${path}`,
      parameters: (operation.parameters ?? []).map((parameter) => ({
        name: parameter.name,
        in: parameter.in as Parameter['in'],
        schema: parameter.schema ?? { type: 'string' },
      })),
      body: operation.requestBody?.content['application/json']?.schema,
      authenticated: operation['x-required-scope'] !== undefined,
    }));
  });
}

const sdkKey: Parameter = { name: 'key', in: 'query', schema: { type: 'string', pattern: '^pk_live_[0-9a-f]{32}$' } };

/** An SDK batch as DESIGN.md section 5 describes it: the page, the session, and observations of each kind. */
const SDK_BATCH: Schema = {
  type: 'object',
  required: ['page_url', 'session_id', 'sdk_version', 'observations'],
  properties: {
    page_url: { type: 'string', format: 'uri' },
    session_id: { type: 'string', maxLength: 64 },
    sdk_version: { type: 'string', pattern: '^1\\.[0-9]\\.[0-9]$' },
    observations: {
      type: 'array',
      maxItems: 3,
      items: {
        anyOf: [
          {
            type: 'object',
            required: ['kind', 'src'],
            properties: {
              kind: { enum: ['script'] },
              src: { type: 'string', format: 'uri' },
              inline: { type: 'boolean' },
              hash: { type: 'string', pattern: '^sha384-[A-Za-z0-9+/]{64}$' },
              hash_source: { enum: ['sdk', 'sri'] },
              size_bytes: { type: 'integer', minimum: 0, maximum: 10_000_000 },
              integrity_attr: { type: 'boolean' },
              gtm_container: { type: 'string', maxLength: 64 },
            },
          },
          { type: 'object', required: ['kind', 'headers'], properties: { kind: { enum: ['headers'] }, headers: { type: 'object', properties: { 'content-security-policy': { type: 'string' } } } } },
          { type: 'object', required: ['kind'], properties: { kind: { enum: ['csp_violation'] }, blocked_uri: { type: 'string' }, violated_directive: { type: 'string' } } },
          { type: 'object', required: ['kind', 'src', 'field'], properties: { kind: { enum: ['sensitive_field_access'] }, src: { type: 'string', format: 'uri' }, field: { type: 'string' }, callers: { type: 'array', items: { type: 'string', format: 'uri' } } } },
          { type: 'object', required: ['kind', 'origin'], properties: { kind: { enum: ['iframe'] }, origin: { type: 'string', format: 'uri' } } },
          { type: 'object', required: ['kind', 'method', 'key_hash'], properties: { kind: { enum: ['payment_recipient'] }, method: { enum: ['pix', 'boleto'] }, key_hash: { type: 'string', pattern: '^[a-f0-9]{64}$' } } },
        ],
      },
    },
  },
};

/** A browser's CSP report (`application/csp-report`), the other body the SDK routes read. */
const CSP_REPORT: Schema = {
  type: 'object',
  properties: { 'csp-report': { type: 'object', properties: { 'document-uri': { type: 'string', format: 'uri' }, 'blocked-uri': { type: 'string' }, 'violated-directive': { type: 'string' } } } },
};

/** The routes outside the document: the SDK's (public, keyed by the store's SDK key), health and readiness. */
export const UNDOCUMENTED_OPERATIONS: Operation[] = [
  { method: 'GET', path: '/sdk/v1/config', parameters: [sdkKey], authenticated: false },
  { method: 'POST', path: '/sdk/v1/events', parameters: [sdkKey], body: SDK_BATCH, authenticated: false },
  { method: 'POST', path: '/sdk/v1/csp', parameters: [sdkKey], body: CSP_REPORT, authenticated: false },
  { method: 'OPTIONS', path: '/sdk/v1/events', parameters: [], authenticated: false },
  { method: 'GET', path: '/sdk/v1/sdk.js', parameters: [], authenticated: false },
  { method: 'GET', path: '/sdk/v1/versions', parameters: [], authenticated: false },
  { method: 'GET', path: '/health', parameters: [], authenticated: false },
  { method: 'GET', path: '/ready', parameters: [], authenticated: false },
];
