import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, validationError } from '@pss/kernel';
import type { Scope } from '@pss/contracts';
import { Metrics } from '@pss/metrics';
import { noteOrganization } from '@pss/platform';
import { PRINCIPAL, type AuthenticatedRequest } from './principal';
import { enforceRateLimit } from '../rate-limit/enforce-rate-limit';
import { RateLimiter } from '../rate-limit/rate-limiter';
import { readsInput } from '../http/route-inputs';
import { ActingOrganization } from './acting-organization';
import { NO_ORG_ID_METADATA, PUBLIC_METADATA, SCOPE_METADATA } from './scopes.decorator';
import { TokenAuthenticator } from './token-authenticator';

/**
 * Every route is closed unless it declares its scope (or is public): a route added without one fails loudly
 * instead of being open.
 */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: TokenAuthenticator,
    private readonly actingOrganization: ActingOrganization,
    private readonly limiter: RateLimiter,
    private readonly metrics: Metrics,
  ) {}

  /** What each route declares, read once per handler: the metadata never changes after start. */
  private readonly declarations = new WeakMap<Function, WeakMap<Function, RouteDeclaration>>();

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const { isPublic, scope, acceptsOrgId, readsBody, readsQuery } = this.declarationOf(context.getClass(), context.getHandler());
    if (isPublic) return true;
    if (!scope) throw new Error(`route ${context.getClass().name}.${context.getHandler().name} declares no scope`);
    const request = context.switchToHttp().getRequest<FastifyRequest & AuthenticatedRequest>();
    const principal = await this.authenticator.authenticate(request.headers.authorization);
    noteOrganization(request, principal.orgId);
    enforceRateLimit(this.limiter, principal.tokenId, context.switchToHttp().getResponse<FastifyReply>(), this.metrics);
    if (!principal.scopes.includes(scope)) {
      throw new DomainError('insufficient_scope', `This operation requires the ${scope} scope`);
    }
    const named = { query: (request.query as Record<string, unknown> | undefined)?.org_id, body: bodyField(request.body, 'org_id') };
    request[PRINCIPAL] = { ...principal, actingOrgId: await this.actingOrganization.resolve(principal, named, acceptsOrgId) };
    noteOrganization(request, request[PRINCIPAL].actingOrgId);
    if (!readsQuery) refuseFieldsOtherThanOrgId(request.query);
    if (!readsBody) refuseFieldsOtherThanOrgId(request.body);
    return true;
  }

  private declarationOf(controller: Function, handler: Function): RouteDeclaration {
    let byHandler = this.declarations.get(controller);
    if (!byHandler) this.declarations.set(controller, (byHandler = new WeakMap()));
    let declaration = byHandler.get(handler);
    if (!declaration) {
      const targets = [handler, controller];
      declaration = {
        isPublic: Boolean(this.reflector.getAllAndOverride<boolean>(PUBLIC_METADATA, targets)),
        scope: this.reflector.getAllAndOverride<Scope | undefined>(SCOPE_METADATA, targets),
        acceptsOrgId: !this.reflector.getAllAndOverride<boolean>(NO_ORG_ID_METADATA, targets),
        readsBody: readsInput(controller, handler.name, 'body'),
        readsQuery: readsInput(controller, handler.name, 'query'),
      };
      byHandler.set(handler, declaration);
    }
    return declaration;
  }
}

interface RouteDeclaration {
  isPublic: boolean;
  scope: Scope | undefined;
  acceptsOrgId: boolean;
  /** Whether the handler reads a body, a query string; one that does not still refuses unknown fields (DESIGN.md). */
  readsBody: boolean;
  readsQuery: boolean;
}

const bodyField = (body: unknown, field: string): unknown =>
  body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>)[field] : undefined;

/**
 * An operation without a body (rotate-key, the DELETEs, a webhook test) or without query parameters (GET of one
 * resource) has no DTO to reject unknown fields, so they are refused here: it may be empty or name `org_id`.
 */
function refuseFieldsOtherThanOrgId(input: unknown): void {
  if (input === undefined || input === null) return;
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw validationError([{ field: 'body', message: 'This operation takes no body other than an object with org_id' }]);
  }
  const unknown = Object.keys(input).filter((key) => key !== 'org_id');
  if (unknown.length > 0) throw validationError(unknown.map((field) => ({ field, message: `${field} is not a known field` })));
}
