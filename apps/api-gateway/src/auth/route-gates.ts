import type { Scope } from '@pss/contracts';

/**
 * What a request must show to reach a route:
 * - `public`: nothing;
 * - `sdk-key`: a store's public SDK key, checked by `SdkAdmission` (sdk/sdk-admission.ts) at `onRequest`, before the
 *   body, with the key's own rate limits; Nest's guard lets these through;
 * - `bearer`: an organization's API token holding `scope`, checked by `RequestAdmission` (request-admission.ts) with
 *   the token's rate limit; `orgId: 'refused'` routes never act on a child organization (400 on `org_id`).
 */
export type Gate = { readonly kind: 'public' } | { readonly kind: 'sdk-key' } | BearerGate;

export interface BearerGate {
  readonly kind: 'bearer';
  readonly scope: Scope;
  readonly orgId: 'accepted' | 'refused';
}

const PUBLIC: Gate = { kind: 'public' };
const SDK_KEY: Gate = { kind: 'sdk-key' };
const bearer = (scope: Scope, orgId: BearerGate['orgId'] = 'accepted'): BearerGate => ({ kind: 'bearer', scope, orgId });

/**
 * Every route of the OpenAPI document, by method and the URL Fastify routes it under, with its gate. This is what
 * the guard, the fast reads and the OpenAPI spec check read: a route missing here is refused with a 500 by the
 * guard (closed, never open), and route-gates.e2e.spec.ts fails when this table and the served document differ.
 */
export const DOCUMENTED_ROUTE_GATES: Readonly<Record<string, Gate>> = {
  'GET /api/v1/openapi.json': PUBLIC,

  'GET /api/v1/organizations': bearer('orgs:manage', 'refused'),
  'POST /api/v1/organizations': bearer('orgs:manage', 'refused'),
  'GET /api/v1/organizations/:id/usage': bearer('usage:read'),

  'GET /api/v1/stores': bearer('stores:read'),
  'POST /api/v1/stores': bearer('stores:write'),
  'GET /api/v1/stores/:id': bearer('stores:read'),
  'PATCH /api/v1/stores/:id': bearer('stores:write'),
  'DELETE /api/v1/stores/:id': bearer('stores:write'),
  'POST /api/v1/stores/:id/rotate-key': bearer('stores:write'),
  'POST /api/v1/stores/:id/verify-domain': bearer('stores:write'),
  'GET /api/v1/stores/:id/pages': bearer('stores:read'),
  'POST /api/v1/stores/:id/pages': bearer('pages:write'),
  'GET /api/v1/stores/:id/status': bearer('stores:read'),
  'GET /api/v1/stores/:id/csp': bearer('stores:read'),

  'GET /api/v1/scripts': bearer('scripts:read'),
  'GET /api/v1/scripts/:id': bearer('scripts:read'),
  'POST /api/v1/scripts/:id/authorize': bearer('scripts:review'),
  'POST /api/v1/scripts/:id/block': bearer('scripts:review'),
  'GET /api/v1/connections': bearer('scripts:read'),

  'GET /api/v1/rules': bearer('scripts:read'),
  'POST /api/v1/rules': bearer('rules:write'),
  'DELETE /api/v1/rules': bearer('rules:write'),
  'PATCH /api/v1/rules/:id': bearer('rules:write'),
  'DELETE /api/v1/rules/:id': bearer('rules:write'),

  'GET /api/v1/policies': bearer('policies:read'),
  'POST /api/v1/policies': bearer('policies:write'),
  'PATCH /api/v1/policies/:id': bearer('policies:write'),
  'DELETE /api/v1/policies/:id': bearer('policies:write'),
  'POST /api/v1/policies/:id/simulate': bearer('policies:read'),
  'POST /api/v1/policies/:id/apply': bearer('policies:write'),

  'GET /api/v1/alerts': bearer('alerts:read'),
  'GET /api/v1/alerts/:id': bearer('alerts:read'),
  'PATCH /api/v1/alerts/:id': bearer('alerts:write'),

  'GET /api/v1/reports/pci': bearer('reports:read'),
  'GET /api/v1/reports/pci/snapshots': bearer('reports:read'),
  'GET /api/v1/reports/pci/snapshots/:id': bearer('reports:read'),
  'GET /api/v1/reports/pci/schedule': bearer('reports:read'),
  'POST /api/v1/reports/pci/schedule': bearer('reports:generate'),
  'DELETE /api/v1/reports/pci/schedule': bearer('reports:generate'),

  'GET /api/v1/webhooks': bearer('webhooks:manage'),
  'POST /api/v1/webhooks': bearer('webhooks:manage'),
  'GET /api/v1/webhooks/:id': bearer('webhooks:manage'),
  'PATCH /api/v1/webhooks/:id': bearer('webhooks:manage'),
  'DELETE /api/v1/webhooks/:id': bearer('webhooks:manage'),
  'POST /api/v1/webhooks/:id/test': bearer('webhooks:manage'),

  'OPTIONS /sdk/v1/config': PUBLIC,
  'OPTIONS /sdk/v1/events': PUBLIC,
  'OPTIONS /sdk/v1/csp': PUBLIC,
  'GET /sdk/v1/config': SDK_KEY,
  'POST /sdk/v1/events': SDK_KEY,
  'POST /sdk/v1/csp': SDK_KEY,
  // A key here only picks the store's channel; without one (or with a refused one) the stable release is served.
  'GET /sdk/v1/sdk.js': PUBLIC,
  'GET /sdk/v1/sdk-:version.js': PUBLIC,
  'GET /sdk/v1/versions': PUBLIC,
};

/**
 * The Nest routes outside the document: probes, the invitation page and the signed report-file links (their
 * signature is their gate, checked by the handler). `GET /metrics` is a plain Fastify route, no Nest handler.
 */
export const UNDOCUMENTED_ROUTE_GATES: Readonly<Record<string, Gate>> = {
  'GET /health': PUBLIC,
  'GET /ready': PUBLIC,
  'GET /invite': PUBLIC,
  'GET /files/v1/reports': PUBLIC,
};

/** The gate of `METHOD /url-template`, or undefined for a route neither table lists. */
export const gateOf = (route: string): Gate | undefined =>
  Object.hasOwn(DOCUMENTED_ROUTE_GATES, route) ? DOCUMENTED_ROUTE_GATES[route] : Object.hasOwn(UNDOCUMENTED_ROUTE_GATES, route) ? UNDOCUMENTED_ROUTE_GATES[route] : undefined;
