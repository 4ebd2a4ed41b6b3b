import type { JsonSchema } from './json-schema';

/** DESIGN.md section 4: `{"error": {"code", "message", "details"?}}`. */
export const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        details: {
          type: 'array',
          description: 'One entry per invalid field (validation_error); `field` is absent when the body as a whole is refused.',
          items: { type: 'object', required: ['message'], properties: { field: { type: 'string' }, message: { type: 'string' } } },
        },
      },
    },
  },
};

const example = (code: string, message: string, details?: { field: string; message: string }[]) => ({
  value: { error: { code, message, ...(details ? { details } : {}) } },
});

export const ERROR_EXAMPLES = {
  validation_error: example('validation_error', 'Invalid request', [{ field: 'domain', message: 'domain must be a string' }]),
  unauthorized: example('unauthorized', 'Missing or malformed bearer token'),
  insufficient_scope: example('insufficient_scope', 'This operation requires the stores:write scope'),
  plan_limit: example('plan_limit', 'The plan allows no more stores'),
  not_found: example('not_found', 'Store not found'),
  conflict: example('conflict', 'A store with this domain already exists'),
  gone: example('gone', 'The data of this on-demand snapshot was removed on 2027-03-01 under the retention policy; its record and hashes remain on the evidence chain'),
  idempotency_in_progress: example('idempotency_in_progress', 'A request with this Idempotency-Key is still in progress'),
  payload_too_large: example('payload_too_large', 'Request body is too large'),
  unsupported_media_type: example('unsupported_media_type', 'Request bodies must be application/json'),
  idempotency_key_reused: example('idempotency_key_reused', 'This Idempotency-Key was used with another request'),
  domain_not_verified: example('domain_not_verified', 'Expected a TXT record _pss-challenge.loja.example with the value pss-verify=4f0c…; found no TXT record', [
    { field: 'domain', message: '_pss-challenge.loja.example does not hold pss-verify=4f0c…; found no TXT record' },
  ]),
  rate_limited: example('rate_limited', 'Rate limit exceeded; retry after 12 seconds'),
  service_unavailable: example('service_unavailable', 'A data store is unavailable; retry shortly'),
};

/** What each error status means, and its examples. */
const ERRORS: Record<number, { description: string; examples: (keyof typeof ERROR_EXAMPLES)[] }> = {
  400: { description: 'validation_error: one detail per invalid field', examples: ['validation_error'] },
  401: { description: 'Missing or malformed credentials, invalid or expired (WWW-Authenticate says which realm)', examples: ['unauthorized'] },
  403: { description: 'insufficient_scope, plan_limit, nesting_limit or forbidden', examples: ['insufficient_scope', 'plan_limit'] },
  404: { description: 'not_found: no such resource in the acting organization', examples: ['not_found'] },
  409: { description: 'conflict (a domain, page or rule that exists; a domain another store verified; a suspended store changes no more), or idempotency_in_progress', examples: ['conflict', 'idempotency_in_progress'] },
  410: { description: 'gone: the snapshot is listed on its evidence chain, but retention removed its data (on-demand snapshots past REPORT_ON_DEMAND_RETENTION_DAYS)', examples: ['gone'] },
  413: { description: 'payload_too_large', examples: ['payload_too_large'] },
  415: { description: 'unsupported_media_type: bodies are application/json', examples: ['unsupported_media_type'] },
  422: {
    description: 'idempotency_key_reused: the key came with another request; domain_not_verified: the TXT record does not hold the value (the message says what was expected and found)',
    examples: ['idempotency_key_reused', 'domain_not_verified'],
  },
  429: { description: 'rate_limited: see Retry-After', examples: ['rate_limited'] },
  503: { description: 'service_unavailable: a service or data store did not answer in time; safe to retry (with the same Idempotency-Key)', examples: ['service_unavailable'] },
};

const response = (status: number) => ({
  description: ERRORS[status].description,
  content: {
    'application/json': {
      schema: { $ref: '#/components/schemas/Error' },
      examples: Object.fromEntries(ERRORS[status].examples.map((name) => [name, { $ref: `#/components/examples/${name}` }])),
    },
  },
});

/** The error answers of an operation: those of its kind (authenticated, with a body, idempotent) and its own. */
export function errorResponses(kind: { authenticated: boolean; writes: boolean; takesBody: boolean; idempotent: boolean; hasInput: boolean; extra: readonly number[] }) {
  const statuses = new Set<number>(kind.extra);
  if (kind.authenticated) [400, 401, 403, 404, 429, 503].forEach((status) => statuses.add(status));
  if (kind.authenticated && kind.writes) statuses.add(409);
  if (kind.hasInput) statuses.add(400);
  if (kind.takesBody) [400, 413, 415].forEach((status) => statuses.add(status));
  if (kind.idempotent) [409, 422].forEach((status) => statuses.add(status));
  return Object.fromEntries([...statuses].sort().map((status) => [String(status), response(status)]));
}
