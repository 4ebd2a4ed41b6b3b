import { RequestMethod } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import type { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { PUBLIC_METADATA, SCOPE_METADATA } from '../auth/scopes.decorator';
import { API_PREFIX } from '../http/api-prefix';
import { REALM } from '../auth/unauthorized';
import { IDEMPOTENT_METADATA } from '../idempotency/idempotent.decorator';
import { DtoSchemas } from './dto-schemas';
import { withQueryFields, type Parameter } from './query-parameters';
import { routeInputs } from './route-inputs';

type Operation = Record<string, unknown>;

const ERROR_SCHEMA = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        details: { type: 'array', items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } } },
      },
    },
  },
};

const ID_PARAMETER: Parameter = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };

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

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

/**
 * The OpenAPI 3.1 document, built from the routes themselves: every operation under /api/v1 with the scope its
 * guard enforces, and its body and query string as the DTOs the validation pipe checks them against, so the
 * document cannot drift from what the gateway does. Responses are described by status only.
 */
export function buildOpenApiDocument(discovery: DiscoveryService, scanner: MetadataScanner, version: string) {
  const paths: Record<string, Record<string, Operation>> = {};
  const dtoSchemas = new DtoSchemas(new Set(['Error']));
  for (const wrapper of discovery.getControllers()) {
    const controller = wrapper.metatype as (new (...args: never[]) => object) | undefined;
    if (!controller || !wrapper.instance) continue;
    const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    if (!base.startsWith(API_PREFIX)) continue;
    const prototype = Object.getPrototypeOf(wrapper.instance);
    for (const name of scanner.getAllMethodNames(prototype)) {
      const handler = prototype[name];
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (method === undefined) continue;
      const sub = String(Reflect.getMetadata(PATH_METADATA, handler) ?? '');
      const path = `/${[base, sub].filter((part) => part && part !== '/').join('/')}`.replace(/:(\w+)/g, '{$1}').replace(/\/+/g, '/');
      const scope = Reflect.getMetadata(SCOPE_METADATA, handler) as string | undefined;
      const isPublic = Reflect.getMetadata(PUBLIC_METADATA, handler) === true;
      const idempotent = Reflect.getMetadata(IDEMPOTENT_METADATA, handler) === true;
      const success = String(Reflect.getMetadata(HTTP_CODE_METADATA, handler) ?? (method === RequestMethod.POST ? 201 : 200));
      const { body, query } = routeInputs(controller, prototype, name);
      (paths[path] ??= {})[RequestMethod[method].toLowerCase()] = {
        operationId: `${controller.name.replace(/Controller$/, '')}.${name}`,
        ...(scope ? { 'x-required-scope': scope, description: `Requires the \`${scope}\` scope.` } : {}),
        security: isPublic ? [] : [{ bearerAuth: [] }],
        parameters: withQueryFields(
          [
            ...(path.includes('{id}') ? [ID_PARAMETER] : []),
            ...(isPublic ? [] : [ORG_ID_PARAMETER]),
            ...(idempotent ? [IDEMPOTENCY_KEY_HEADER] : []),
          ],
          query ? dtoSchemas.fieldsOf(query) : [],
        ),
        ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: dtoSchemas.refTo(body) } } } } : {}),
        responses: {
          [success]: { description: 'Success' },
          '400': errorResponse('validation_error'),
          ...(isPublic
            ? {}
            : {
                '401': errorResponse('Missing or malformed bearer token, invalid or expired token'),
                '403': errorResponse('insufficient_scope'),
                '429': errorResponse('rate_limited (see Retry-After)'),
              }),
          ...(idempotent ? { '409': errorResponse('idempotency_in_progress'), '422': errorResponse('idempotency_key_reused') } : {}),
        },
      };
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: REALM, version },
    servers: [{ url: `/${API_PREFIX}` }],
    paths: Object.fromEntries(Object.entries(paths).map(([path, ops]) => [path.replace(`/${API_PREFIX}`, '') || '/', ops])),
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An organization API token (65 characters).' } },
      schemas: { Error: ERROR_SCHEMA, ...dtoSchemas.components },
    },
  };
}
