import type { FastifyInstance } from 'fastify';

/**
 * Many clients send `Content-Type: application/json` with no body on POSTs that take none (rotate-key, test,
 * apply). Fastify answers those with "empty JSON body"; here an empty body is simply no body. Anything else is
 * parsed by Fastify's own parser, prototype-poisoning checks included.
 */
export function acceptEmptyJsonBodies(fastify: FastifyInstance): void {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    parse(request, text, done);
  });
}
