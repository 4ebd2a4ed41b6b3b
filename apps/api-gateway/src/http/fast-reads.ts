import { Injectable, Logger, SetMetadata, type OnModuleInit } from '@nestjs/common';
import { HEADERS_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, HttpAdapterHost, MetadataScanner, Reflector } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Scope } from '@pss/contracts';
import type { Principal } from '../auth/principal';
import { gateOfHandler, RequestAdmission } from '../auth/request-admission';
import { compileQuery, type CompiledQuery } from './compiled-query';
import { answerError } from './exceptions.filter';
import { handlerRoutes } from './handler-routes';

const FAST_READ_METADATA = 'pss:fast-read';

/**
 * Marks a list GET `(query: SomeListQuery, principal: Principal)` a fast read: see `FastReads`. Its route keeps
 * everything else (its gate in route-gates.ts, DTO, OpenAPI description) where it is.
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
 * access log) and is admitted by the guard's own pieces (`RequestAdmission`: the token, the scope of the route's
 * gate in route-gates.ts, the organization noted for the log, the rate limit with its headers), then answered by
 * the compiled query check and the controller's own handler with the route's `@Header`s; errors leave in the
 * exception filter's shape.
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
    private readonly admission: RequestAdmission,
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
        const gate = gateOfHandler(metatype, handler);
        const [queryType] = (Reflect.getMetadata('design:paramtypes', prototype, name) ?? []) as Array<new () => object>;
        const query = queryType ? compileQuery(queryType) : undefined;
        if (gate.kind !== 'bearer' || !query) throw new Error(`${metatype.name}.${name} is marked @FastRead() but has no bearer gate or no compilable query DTO`);
        const [{ url }] = handlerRoutes(metatype, handler);
        const headers = this.reflector.get<Array<{ name: string; value: string }> | undefined>(HEADERS_METADATA, handler) ?? [];
        this.routes.set(url, { scope: gate.scope, query, headers, handle: (checked, principal) => handler.call(instance, checked, principal) });
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
      principal = await this.admission.authenticate(request);
    } catch {
      return undefined;
    }
    try {
      const admitted = this.admission.admitOnOwnOrganization(request, reply, principal, route.scope);
      if (!admitted) return undefined;
      const answer = await route.handle(query, admitted);
      for (const { name, value } of route.headers) reply.header(name, value);
      return reply.send(answer);
    } catch (error) {
      answerError(reply, error, this.logger);
      return reply;
    }
  }
}
