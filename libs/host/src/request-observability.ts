import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceConfig } from '@pss/config';
import { serveMetricsRoute, type Metrics } from '@pss/metrics';
import { notedOrganization, type JsonLogger } from '@pss/platform';

export const REQUEST_ID_HEADER = 'x-request-id';

/** A caller's id is kept when it is short and plain (a UUID, a trace id); anything else is replaced. */
const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Probes and scrapes every few seconds: their lines are debug, so the info log shows the traffic. */
const QUIET_ROUTES = new Set(['/health', '/ready', '/metrics']);

/** Routes no handler matched: one label, whatever the path, so a scan cannot grow the metrics without bound. */
const UNMATCHED_ROUTE = 'unmatched';

const requestIds = new WeakMap<object, string>();

/** The request id of a request (the caller's `X-Request-Id` when acceptable, else generated). */
export const requestIdOf = (request: FastifyRequest): string | undefined => requestIds.get(request.raw);

/** The id a request goes by: the caller's `X-Request-Id` when short and plain, else a new one. */
export const requestIdFrom = (offered: string | string[] | undefined): string =>
  typeof offered === 'string' && ACCEPTED_REQUEST_ID.test(offered) ? offered : randomUUID();

/**
 * Every request gets a request id, returned in `X-Request-Id`: registered before any hook that may answer early
 * (a wrong method's 405), so those answers carry one too.
 */
export function assignRequestIds(fastify: FastifyInstance): void {
  // Callback hooks, not async ones: two promises fewer on every request.
  fastify.addHook('onRequest', (request, reply, done) => {
    const id = requestIdFrom(request.headers[REQUEST_ID_HEADER]);
    requestIds.set(request.raw, id);
    reply.header('X-Request-Id', id);
    done();
  });
}

/**
 * Every request gets one access-log line and a sample in the duration histogram, labelled with the route
 * template (`/api/v1/stores/:id`), never the path itself. The line holds no header, query string or body: tokens
 * and SDK keys travel in those. `/metrics` is served here unless METRICS_PORT gives it a listener of its own
 * (`runService`).
 */
export function observeRequests(fastify: FastifyInstance, logger: JsonLogger, metrics: Metrics, config: ServiceConfig): void {
  if (config.metricsPort === null) serveMetricsRoute(fastify, metrics);
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    metrics.httpRequestDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    const level = QUIET_ROUTES.has(route) ? 'debug' : 'info';
    if (logger.writes(level)) logger.emit(level, `${request.method} ${route} ${reply.statusCode}`, 'http', accessLine(request, reply, route));
    done();
  });
}

function accessLine(request: FastifyRequest, reply: FastifyReply, route: string) {
  return {
    method: request.method,
    route,
    status: reply.statusCode,
    duration_ms: Math.round(reply.elapsedTime * 10) / 10,
    org_id: notedOrganization(request),
    request_id: requestIdOf(request) ?? null,
  };
}
