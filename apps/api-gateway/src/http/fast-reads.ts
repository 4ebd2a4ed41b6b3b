import { Injectable, Logger, SetMetadata, type OnModuleInit } from '@nestjs/common';
import { HEADERS_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, HttpAdapterHost, MetadataScanner, Reflector } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Scope } from '@pss/contracts';
import { Metrics } from '@pss/metrics';
import { noteOrganization } from '@pss/platform';
import type { Principal } from '../auth/principal';
import { SCOPE_METADATA } from '../auth/scopes.decorator';
import { TokenAuthenticator } from '../auth/token-authenticator';
import { enforceRateLimit } from '../rate-limit/enforce-rate-limit';
import { RateLimiter } from '../rate-limit/rate-limiter';
import { compileQuery, type CompiledQuery } from './compiled-query';
import { answerError } from './exceptions.filter';

const FAST_READ_METADATA = 'pss:fast-read';

/**
 * Marks a list GET `(query: SomeListQuery, principal: Principal)` a fast read: see `FastReads`. Its route keeps
 * everything else (scope, DTO, OpenAPI description) where it is.
 */
export const FastRead = () => SetMetadata(FAST_READ_METADATA, true);

interface FastRoute {
  scope: Scope;
  query: CompiledQuery;
  /** The route's `@Header`s, which Nest sets on its answers. */
  headers: ReadonlyArray<{ name: string; value: string }>;
  handle(query: object, principal: Principal): Promise<unknown>;
}

/**
 * Fast reads: the list GETs clients poll (`GET /stores`, `GET /scripts`) answered from a Fastify preHandler hook,
 * before Nest's router, guard, pipe and response layers, which were about 60 % of such a request's CPU
 * (docs/benchmarks.md, Benchmark 3 at scale). The request still passes Fastify's hooks (request id, metrics,
 * access log) and is answered by the same pieces, in the guard's order: the token (`TokenAuthenticator`), the
 * scope, the rate limit with its headers, the organization noted for the log, the compiled query check, then the
 * controller's own handler with the route's `@Header`s; errors leave in the exception filter's shape.
 *
 * It only answers a request every check accepts before anything is counted: a missing or refused token, a
 * missing scope, `org_id` (a partner acting on a child), or a query the compiled check does not accept go on to
 * Nest, which answers them exactly as before (and counts the rate limit once). So the fast path can only ever
 * give the answer the Nest route would.
 */
@Injectable()
export class FastReads implements OnModuleInit {
  private readonly logger = new Logger('Http');
  private readonly routes = new Map<string, FastRoute>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly adapterHost: HttpAdapterHost,
    private readonly authenticator: TokenAuthenticator,
    private readonly limiter: RateLimiter,
    private readonly metrics: Metrics,
  ) {}

  /** The routes marked `@FastRead()`, by the URL template Fastify routes them under. */
  get urls(): string[] {
    return [...this.routes.keys()];
  }

  onModuleInit(): void {
    for (const wrapper of this.discovery.getControllers()) {
      const { instance, metatype } = wrapper;
      if (!instance || !metatype) continue;
      const prototype = Object.getPrototypeOf(instance) as Record<string, (...args: unknown[]) => Promise<unknown>>;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name];
        if (!this.reflector.get<boolean>(FAST_READ_METADATA, handler)) continue;
        const scope = this.reflector.getAllAndOverride<Scope | undefined>(SCOPE_METADATA, [handler, metatype]);
        const [queryType] = (Reflect.getMetadata('design:paramtypes', prototype, name) ?? []) as Array<new () => object>;
        const query = queryType ? compileQuery(queryType) : undefined;
        if (!scope || !query) throw new Error(`${metatype.name}.${name} is marked @FastRead() but has no scope or no compilable query DTO`);
        const url = routeUrl(this.reflector.get<string>(PATH_METADATA, metatype), this.reflector.get<string>(PATH_METADATA, handler));
        const headers = this.reflector.get<Array<{ name: string; value: string }> | undefined>(HEADERS_METADATA, handler) ?? [];
        this.routes.set(url, { scope, query, headers, handle: (checked, principal) => handler.call(instance, checked, principal) });
      }
    }
    if (this.routes.size === 0) return;
    this.adapterHost.httpAdapter.getInstance<FastifyInstance>().addHook('preHandler', (request, reply) => this.answer(request, reply));
  }

  /** Answers the request (and returns the reply), or returns undefined and lets Nest answer it. */
  private async answer(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    if (request.method !== 'GET') return undefined;
    const route = this.routes.get(request.routeOptions.url ?? '');
    const query = route?.query(request.query);
    if (!route || !query || (query as { org_id?: unknown }).org_id !== undefined) return undefined;
    let principal: Omit<Principal, 'actingOrgId'>;
    try {
      principal = await this.authenticator.authenticate(request.headers.authorization);
    } catch {
      return undefined;
    }
    if (!principal.scopes.includes(route.scope)) return undefined;
    try {
      noteOrganization(request, principal.orgId);
      enforceRateLimit(this.limiter, principal.tokenId, reply, this.metrics);
      const answer = await route.handle(query, { ...principal, actingOrgId: principal.orgId });
      for (const { name, value } of route.headers) reply.header(name, value);
      return reply.send(answer);
    } catch (error) {
      answerError(reply, error, this.logger);
      return reply;
    }
  }
}

/** The URL Fastify routes a Nest handler under: `/` + the controller's path + the method's, without empty parts. */
function routeUrl(controllerPath = '', methodPath = ''): string {
  const parts = [controllerPath, methodPath].flatMap((path) => path.split('/')).filter(Boolean);
  return `/${parts.join('/')}`;
}
