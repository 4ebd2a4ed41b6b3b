import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, validationError } from '@pss/kernel';
import type { Scope } from '@pss/contracts';
import { Metrics } from '@pss/metrics';
import { noteOrganization } from '@pss/platform';
import { handlerRoutes, routeName } from '../http/handler-routes';
import { enforceRateLimit } from '../rate-limit/enforce-rate-limit';
import { RateLimiter } from '../rate-limit/rate-limiter';
import { ActingOrganization } from './acting-organization';
import { PRINCIPAL, type AuthenticatedRequest, type Principal } from './principal';
import { gateOf, type BearerGate, type Gate } from './route-gates';
import { TokenAuthenticator } from './token-authenticator';

/** What a handler reads of the request; one that does not read a body or a query still refuses unknown fields (DESIGN.md). */
export interface RouteInputsRead {
  readsBody: boolean;
  readsQuery: boolean;
}

/**
 * The one place a bearer request is admitted, in this order: the token (401), the organization noted for the log,
 * the token's rate limit (429, with its headers), the route's scope (403), the acting organization named by
 * `org_id` (acting-organization.ts), then fields a handler would not read (400). Nest's guard runs all of it; the
 * fast reads (http/fast-reads.ts) run the same pieces and leave every request they would refuse to the guard;
 * the hook that checks the token before a body is read (bearer-before-body.ts) runs the first. Which gate a route
 * has is route-gates.ts; the SDK key's gate is sdk/sdk-admission.ts.
 */
@Injectable()
export class RequestAdmission {
  constructor(
    private readonly authenticator: TokenAuthenticator,
    private readonly actingOrganization: ActingOrganization,
    private readonly limiter: RateLimiter,
    private readonly metrics: Metrics,
  ) {}

  /** The token's principal (401 without a valid one); the authenticator's own promise, so no extra one per request. */
  authenticate(request: FastifyRequest): Promise<Omit<Principal, 'actingOrgId'>> {
    return this.authenticator.authenticate(request.headers.authorization);
  }

  /** The whole gate of a bearer route: the request leaves with its principal, or this throws the refusal. */
  async admit(request: FastifyRequest & AuthenticatedRequest, reply: FastifyReply, gate: BearerGate, inputs: RouteInputsRead): Promise<void> {
    const principal = await this.authenticate(request);
    this.charge(request, reply, principal);
    if (!principal.scopes.includes(gate.scope)) throw insufficientScope(gate.scope);
    const named = { query: (request.query as Record<string, unknown> | undefined)?.org_id, body: bodyField(request.body, 'org_id') };
    request[PRINCIPAL] = { ...principal, actingOrgId: await this.actingOrganization.resolve(principal, named, gate.orgId === 'accepted') };
    noteOrganization(request, request[PRINCIPAL].actingOrgId);
    if (!inputs.readsQuery) refuseFieldsOtherThanOrgId(request.query);
    if (!inputs.readsBody) refuseFieldsOtherThanOrgId(request.body);
  }

  /**
   * The same gate for an authenticated request that names no `org_id` (the fast reads): its principal, or
   * undefined when the scope is missing, which `admit` then refuses in its own order. Throws the 429.
   */
  admitOnOwnOrganization(request: FastifyRequest, reply: FastifyReply, principal: Omit<Principal, 'actingOrgId'>, scope: Scope): Principal | undefined {
    if (!principal.scopes.includes(scope)) return undefined;
    this.charge(request, reply, principal);
    return { ...principal, actingOrgId: principal.orgId };
  }

  /** A known token costs its rate even when the scope is missing: a client probing scopes is limited too. */
  private charge(request: FastifyRequest, reply: FastifyReply, principal: Omit<Principal, 'actingOrgId'>): void {
    noteOrganization(request, principal.orgId);
    enforceRateLimit(this.limiter, principal.tokenId, reply, this.metrics);
  }
}

/**
 * The gate of a Nest handler, from route-gates.ts. A route the table does not list has none: the caller fails
 * loudly rather than leave it open.
 */
export function gateOfHandler(controller: Function, handler: Function): Gate {
  const routes = handlerRoutes(controller, handler).map(routeName);
  const gates = [...new Set(routes.map(gateOf))];
  const [gate] = gates;
  if (!gate || gates.length > 1) throw new Error(`${routes.join(', ')} (${controller.name}.${handler.name}) needs one gate in route-gates.ts`);
  return gate;
}

const insufficientScope = (scope: Scope) => new DomainError('insufficient_scope', `This operation requires the ${scope} scope`);

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
