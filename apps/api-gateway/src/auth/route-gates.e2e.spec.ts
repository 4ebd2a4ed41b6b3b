import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { SCOPES, type Scope } from '@pss/contracts';
import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';
import { handlerRoutes, routeName } from '../http/handler-routes';
import { DOCUMENTED_ROUTE_GATES, UNDOCUMENTED_ROUTE_GATES, type Gate } from './route-gates';

interface DocumentedOperation {
  security: Array<Record<string, string[]>>;
  'x-required-scope'?: Scope;
  parameters?: Array<{ name: string; in: string }>;
}

interface OpenApiDocument {
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, DocumentedOperation> & { servers?: Array<{ url: string }> }>;
}

/** The gate the served document describes for an operation, in route-gates.ts's terms. */
function describedGate(operation: DocumentedOperation): Gate {
  const [security] = operation.security;
  if (!security) return { kind: 'public' };
  if (security.sdkKey) return { kind: 'sdk-key' };
  const takesOrgId = (operation.parameters ?? []).some((parameter) => parameter.name === 'org_id' && parameter.in === 'query');
  return { kind: 'bearer', scope: operation['x-required-scope']!, orgId: takesOrgId ? 'accepted' : 'refused' };
}

/** Every operation of the document by route-gates.ts's name for it (`GET /api/v1/stores/:id`). */
function documentedOperations(document: OpenApiDocument): Map<string, DocumentedOperation> {
  const operations = new Map<string, DocumentedOperation>();
  for (const [path, item] of Object.entries(document.paths)) {
    const server = (item.servers ?? document.servers)[0].url.replace(/\/$/, '');
    for (const [verb, operation] of Object.entries(item)) {
      if (verb === 'servers') continue;
      operations.set(`${verb.toUpperCase()} ${server}${path.replace(/\{(\w+)\}/g, ':$1')}`, operation as DocumentedOperation);
    }
  }
  return operations;
}

/** A URL for a route template: ids are a well-formed id of nothing, other parameters a word. */
const urlOf = (url: string): string => url.replace(/:id\b/g, '01900000-0000-7000-8000-000000000000').replace(/:\w+/g, 'x');

/**
 * route-gates.ts is the table every request's gate is read from: it lists each operation of the OpenAPI document
 * the service serves, with the gate the document describes, and nothing else but the Nest routes outside the
 * document; and each route, asked without credentials, with a token lacking the scope, or naming `org_id`, is
 * refused as its gate says (so the fast reads and the SDK hooks, which answer before Nest, are held to it too).
 */
describe('the gate of every route (HTTP, embedded)', () => {
  let service: EmbeddedHarness;
  let operations: Map<string, DocumentedOperation>;

  beforeAll(async () => {
    service = await EmbeddedHarness.start();
    operations = documentedOperations((await service.request('GET', '/api/v1/openapi.json')).body as OpenApiDocument);
  });
  afterAll(() => service.close());

  it('lists every operation of the document, with the gate the document describes, and no other', () => {
    expect([...operations.keys()].sort()).toEqual(Object.keys(DOCUMENTED_ROUTE_GATES).sort());
    for (const [route, operation] of operations) expect({ route, gate: DOCUMENTED_ROUTE_GATES[route] }).toEqual({ route, gate: describedGate(operation) });
  });

  it('lists every route Nest serves, those outside the document included', () => {
    const scanner = service.app.get(MetadataScanner);
    const served = service.app
      .get(DiscoveryService)
      .getControllers()
      .filter(({ instance, metatype }) => instance && metatype)
      .flatMap(({ instance, metatype }) => {
        const prototype = Object.getPrototypeOf(instance) as Record<string, Function>;
        return scanner.getAllMethodNames(prototype).flatMap((name) => handlerRoutes(metatype as Function, prototype[name]).map(routeName));
      });
    expect(served.sort()).toEqual([...Object.keys(DOCUMENTED_ROUTE_GATES), ...Object.keys(UNDOCUMENTED_ROUTE_GATES)].sort());
  });

  it('refuses a bearer route without a token, with a token lacking its scope, and org_id as its gate says', async () => {
    const everything = await service.tenant([...SCOPES]);
    const lacking = new Map<Scope, Awaited<ReturnType<EmbeddedHarness['tenant']>>>();
    for (const scope of SCOPES) lacking.set(scope, await service.tenant(SCOPES.filter((held) => held !== scope)));
    const withoutOrgsManage = lacking.get('orgs:manage')!;
    for (const [route, gate] of Object.entries(DOCUMENTED_ROUTE_GATES)) {
      if (gate.kind !== 'bearer') continue;
      const [method, template] = route.split(' ');
      const url = urlOf(template);
      const anonymous = await service.request(method, url);
      expect({ route, status: anonymous.status, body: anonymous.body }).toEqual({ route, status: 401, body: { error: { code: 'unauthorized', message: 'Missing or malformed bearer token' } } });
      const unscoped = await service.request(method, url, { token: lacking.get(gate.scope)!.token });
      expect({ route, status: unscoped.status, body: unscoped.body }).toEqual({ route, status: 403, body: { error: { code: 'insufficient_scope', message: `This operation requires the ${gate.scope} scope` } } });
      if (gate.orgId === 'refused') {
        const named = await service.request(method, `${url}?org_id=${everything.orgId}`, { token: everything.token });
        expect({ route, status: named.status, details: named.body.error.details }).toEqual({ route, status: 400, details: [{ field: 'org_id', message: 'org_id is not accepted by this operation' }] });
      } else {
        const named = await service.request(method, `${url}?org_id=${withoutOrgsManage.orgId}`, { token: withoutOrgsManage.token });
        const message = 'Acting on an organization named by org_id requires the orgs:manage scope';
        expect({ route, status: named.status, body: named.body }).toEqual({ route, status: 403, body: { error: { code: 'insufficient_scope', message } } });
      }
    }
  });

  it('refuses an SDK-key route without a key, and answers a public route without credentials', async () => {
    for (const [route, gate] of Object.entries({ ...DOCUMENTED_ROUTE_GATES, ...UNDOCUMENTED_ROUTE_GATES })) {
      const [method, template] = route.split(' ');
      if (gate.kind === 'bearer') continue;
      const answer = await service.request(method, urlOf(template));
      if (gate.kind === 'sdk-key') {
        expect({ route, status: answer.status, body: answer.body }).toEqual({ route, status: 401, body: { error: { code: 'unauthorized', message: 'Invalid SDK key' } } });
      } else {
        // A public route may still refuse what it is sent (a report link's signature): never for want of credentials.
        const asked = answer.status === 401 || answer.body?.error?.code === 'insufficient_scope';
        expect({ route, askedForCredentials: asked }).toEqual({ route, askedForCredentials: false });
      }
    }
  });
});
