import { Logger } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { answerError } from '../http/exceptions.filter';

/** The route every SDK page view posts to, as Fastify knows it. */
export const SDK_EVENTS_URL = '/sdk/v1/events';
/** The route's `@HttpCode`: a batch is taken in, settled behind the answer. */
export const SDK_EVENTS_STATUS = 202;

/** The controller's handler, called with what Nest would pass it: `@Req()` and `@Body()`. */
export interface SdkEventsHandler {
  postEvents(request: FastifyRequest, body: unknown): Promise<unknown>;
}

/**
 * `POST /sdk/v1/events` answered from a Fastify preHandler hook, before Nest's router, guard, pipes and response
 * layers: every page view of every shop posts here, and for a batch of known scripts those layers were a tenth of
 * the request's CPU (docs/benchmarks.md, Benchmark 4a). Nothing of them applies to this route: it is `@Public()`,
 * its parameters are untyped (the pipe passes them as they are) and it has no interceptor. So the hook calls the
 * controller's own handler with the same arguments, answers with the route's status, and errors in the exception
 * filter's shape (answerError): the answers are the route's. The route stays declared on the controller, which
 * keeps its OpenAPI description and its route config (the body read as text, sdk-body.ts); Fastify's own hooks
 * (request id, metrics, access log, body limit) run as before.
 *
 * A callback hook, not an async one: every other route passes it at the cost of one comparison, with no promise.
 */
export function answerSdkEventsBeforeNest(fastify: FastifyInstance, controller: SdkEventsHandler): void {
  const logger = new Logger('Http');
  fastify.addHook('preHandler', (request, reply, done) => {
    if (request.routeOptions.url !== SDK_EVENTS_URL || request.method !== 'POST') return done();
    reply.status(SDK_EVENTS_STATUS);
    controller.postEvents(request, request.body).then(
      (answer) => reply.send(answer),
      (error: unknown) => answerError(reply, error, logger),
    );
  });
}
