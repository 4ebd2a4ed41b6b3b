import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import type { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { NO_ORG_ID_METADATA, PUBLIC_METADATA, SCOPE_METADATA } from '../auth/scopes.decorator';
import { API_PREFIX } from '../http/api-prefix';
import { REALM } from '../auth/unauthorized';
import { IDEMPOTENT_METADATA } from '../idempotency/idempotent.decorator';
import { DtoSchemas } from './dto-schemas';
import type { JsonSchema } from './json-schema';
import { ERROR_EXAMPLES, ERROR_SCHEMA, errorResponses } from './error-responses';
import { OPERATION_CATALOG, TAG_DESCRIPTIONS, type OperationAnswers } from './operation-catalog';
import { withQueryFields, type Parameter } from './query-parameters';
import { RESOURCE_SCHEMAS } from './resource-schemas';
import { routeInputs } from '../http/route-inputs';
import { exampleOf } from './schema-example';
import { SDK_BODIES, SDK_KEY_PARAMETER, SDK_PREFIX, SDK_SCRIPT_KEY_PARAMETER, SDK_SERVERS } from './sdk-operations';

type Operation = Record<string, unknown>;

const pathParameter = (name: string): Parameter =>
  name === 'id'
    ? { name, in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }
    : { name, in: 'path', required: true, schema: { type: 'string' } };

const ORG_ID_PARAMETER: Parameter = {
  name: 'org_id',
  in: 'query',
  required: false,
  description: 'Partners only (orgs:manage): act on this child organization.',
  schema: { type: 'string', format: 'uuid' },
};

const IDEMPOTENCY_KEY_HEADER: Parameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Replays the first response for 24 hours.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

/** The documented prefixes: the API under its token, the SDK endpoints under their key. */
const DOCUMENTED = [API_PREFIX, SDK_PREFIX];

function successResponses(answers: OperationAnswers, components: Record<string, JsonSchema>) {
  return Object.fromEntries(
    Object.entries(answers.success).map(([status, body]) => {
      const description = status === '302' ? 'Redirect to a signed URL (Location), valid 1 hour' : status === '304' ? 'Not modified' : 'Success';
      if (body === null) return [status, { description }];
      const content = 'content' in body && typeof body.content === 'object' ? (body.content as Record<string, JsonSchema>) : { 'application/json': body };
      const media = ([type, schema]: [string, JsonSchema]) => [type, type === 'application/json' ? { schema, example: exampleOf(schema, components) } : { schema }];
      return [status, { description, content: Object.fromEntries(Object.entries(content).map(media)) }];
    }),
  );
}

/**
 * The OpenAPI 3.1 document, built from the routes themselves: every operation under /api/v1 and /sdk/v1 with the
 * scope its guard enforces, its body and query string as the DTOs the validation pipe checks them against, and
 * its answers from the operation catalog, whose schemas are checked against the types the code returns.
 */
export function buildOpenApiDocument(discovery: DiscoveryService, scanner: MetadataScanner, version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  const dtoSchemas = new DtoSchemas(new Set(['Error', ...Object.keys(RESOURCE_SCHEMAS)]));
  const missing: string[] = [];
  for (const wrapper of discovery.getControllers()) {
    const controller = wrapper.metatype as (new (...args: never[]) => object) | undefined;
    if (!controller || !wrapper.instance) continue;
    const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    const prefix = DOCUMENTED.find((documented) => base.startsWith(documented));
    if (!prefix) continue;
    const tag = controller.name.replace(/Controller$/, '');
    const prototype = Object.getPrototypeOf(wrapper.instance);
    for (const name of scanner.getAllMethodNames(prototype)) {
      const handler = prototype[name];
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (method === undefined) continue;
      const operationId = `${tag}.${name}`;
      const answers = OPERATION_CATALOG[operationId];
      if (!answers) {
        missing.push(operationId);
        continue;
      }
      const subs = [Reflect.getMetadata(PATH_METADATA, handler) ?? ''].flat().map(String);
      const scope = Reflect.getMetadata(SCOPE_METADATA, handler) as string | undefined;
      const isPublic = Reflect.getMetadata(PUBLIC_METADATA, handler) === true || Reflect.getMetadata(PUBLIC_METADATA, controller) === true;
      const isSdk = prefix === SDK_PREFIX;
      const idempotent = Reflect.getMetadata(IDEMPOTENT_METADATA, handler) === true;
      // The guard refuses org_id on these routes whatever the DTO declares (an explicit null passes as "absent").
      const takesOrgId = !isPublic && (Reflect.getMetadata(NO_ORG_ID_METADATA, handler) ?? Reflect.getMetadata(NO_ORG_ID_METADATA, controller)) !== true;
      const refused = takesOrgId ? [] : ['org_id'];
      const { body, query } = routeInputs(controller, prototype, name);
      for (const sub of subs) {
        const path = `/${[base, sub].filter((part) => part && part !== '/').join('/')}`.replace(/:(\w+)/g, '{$1}').replace(/\/+/g, '/');
        const verb = RequestMethod[method].toLowerCase();
        const takesBody = body !== undefined || (isSdk && verb === 'post');
        const names = [...path.matchAll(/\{(\w+)\}/g)].map(([, param]) => param);
        const operation: Operation = {
          operationId: subs.length > 1 ? `${operationId}.${sub}` : operationId,
          summary: answers.summary,
          tags: [tag],
          ...(scope ? { 'x-required-scope': scope, description: `Requires the \`${scope}\` scope.` } : {}),
          security: isSdk && verb !== 'options' && name !== 'script' && name !== 'versioned' && name !== 'versions' ? [{ sdkKey: [] }] : isPublic ? [] : [{ bearerAuth: [scope] }],
          parameters: withQueryFields(
            [
              ...names.map(pathParameter),
              ...(takesOrgId ? [ORG_ID_PARAMETER] : []),
              ...(isSdk && ['getConfig', 'postEvents', 'postCspReports'].includes(name) ? [SDK_KEY_PARAMETER] : []),
              ...(isSdk && name === 'script' ? [SDK_SCRIPT_KEY_PARAMETER] : []),
              ...(idempotent ? [IDEMPOTENCY_KEY_HEADER] : []),
            ],
            query ? dtoSchemas.fieldsOf(query, refused) : [],
          ),
          ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: dtoSchemas.refTo(body, refused) } } } } : {}),
          ...(isSdk && verb === 'post' ? { requestBody: { required: true, content: SDK_BODIES[name] } } : {}),
          responses: {
            ...successResponses(answers, RESOURCE_SCHEMAS),
            ...errorResponses({ authenticated: !isPublic, writes: verb !== 'get', takesBody, idempotent, extra: answers.errors ?? [], hasInput: names.length > 0 || !!query || takesBody }),
          },
        };
        (paths[path.replace(`/${API_PREFIX}`, '') || '/'] ??= {})[verb] = operation;
        if (isSdk) paths[path].servers = SDK_SERVERS;
      }
    }
  }
  if (missing.length > 0) throw new Error(`No answers described in operation-catalog.ts for ${missing.join(', ')}`);
  return {
    openapi: '3.1.0',
    info: {
      title: REALM,
      version,
      description: 'Payment-page script security (PCI DSS v4.0 6.4.3 and 11.6.1). See docs/api.md.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: `/${API_PREFIX}` }],
    tags: [...new Set(Object.values(paths).flatMap((item) => Object.values(item).flatMap((op) => (op as { tags?: string[] }).tags ?? [])))].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An organization API token (65 characters); each operation names its scope.' },
        sdkKey: { type: 'apiKey', in: 'query', name: 'key', description: 'The public SDK key of a store (`pk_live_` and 32 hexadecimal characters).' },
      },
      schemas: { Error: ERROR_SCHEMA, ...RESOURCE_SCHEMAS, ...dtoSchemas.components },
      examples: ERROR_EXAMPLES,
    },
  };
}
