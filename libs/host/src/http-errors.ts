import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { REQUEST_ID_HEADER, requestIdFrom } from './request-observability';

/**
 * The errors Fastify and Node's HTTP parser raise before any route runs, in the service's error shape
 * (DESIGN.md section 4) rather than Fastify's own, and never echoing the request: Fastify's messages quote the
 * whole path, and a log or a page that shows them would show whatever an attacker put there.
 */
interface HttpError {
  status: number;
  code: string;
  message: string;
}

const body = ({ code, message }: HttpError): string => JSON.stringify({ error: { code, message } });

/** Longest path parameter the router matches (Fastify's default, said once): ids are 36-character UUIDs. */
export const MAX_PATH_PARAMETER_LENGTH = 100;

const BAD_URL: HttpError = { status: 400, code: 'validation_error', message: 'Malformed URL: the path is not valid percent-encoding' };
const PATH_TOO_LONG: HttpError = { status: 414, code: 'uri_too_long', message: `A path parameter is longer than ${MAX_PATH_PARAMETER_LENGTH} characters` };
const MALFORMED_HTTP: HttpError = { status: 400, code: 'validation_error', message: 'Malformed HTTP request' };
const HEADERS_TOO_LARGE: HttpError = { status: 431, code: 'headers_too_large', message: 'Request headers are too large' };
const REQUEST_TIMEOUT: HttpError = { status: 408, code: 'request_timeout', message: 'The request took too long to arrive' };

const FRAMEWORK_ERRORS: Record<string, HttpError> = { FST_ERR_BAD_URL: BAD_URL, FST_ERR_MAX_PARAM_LENGTH: PATH_TOO_LONG };

/** Fastify's `frameworkErrors`: a path that is not valid percent-encoding, or a path parameter over the router's limit. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const known = FRAMEWORK_ERRORS[error.code] ?? MALFORMED_HTTP;
  // Raised while routing, before the hook that gives requests their id.
  reply.header('X-Request-Id', requestIdFrom(request.headers[REQUEST_ID_HEADER]));
  reply.code(known.status).header('content-type', 'application/json; charset=utf-8').send(body(known));
}

const CLIENT_ERRORS: Record<string, HttpError> = {
  HPE_HEADER_OVERFLOW: HEADERS_TOO_LARGE,
  ERR_HTTP_REQUEST_TIMEOUT: REQUEST_TIMEOUT,
};

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refused (headers over its 16 KiB, a malformed
 * request line, a request that took too long). No request object exists yet: the answer is written on the socket.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody to answer (Fastify's default does the same).
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const known = CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED_HTTP;
  const payload = body(known);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${known.status} ${STATUS_CODES[known.status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nX-Request-Id: ${randomUUID()}\r\nContent-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`,
    );
  }
  socket.destroy(error);
}

/**
 * A path the service serves, asked with a method it does not serve there: 405 `method_not_allowed` with the
 * `Allow` header (RFC 9110), instead of the 404 an unknown path gets. Routes are recorded as they register, so
 * this must be called before the application registers its routes.
 */
export function answerWrongMethods(fastify: FastifyInstance): void {
  const routes: Array<{ pattern: RegExp; methods: string[] }> = [];
  fastify.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    routes.push({ pattern: patternOf(route.url), methods });
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!request.is404) return done();
    const path = request.url.split('?')[0];
    const methods = [...new Set(routes.filter((route) => route.pattern.test(path)).flatMap((route) => route.methods))].sort();
    // A served method that still found no route (a trailing slash, a segment too many) is an unknown path: 404.
    if (methods.length === 0 || methods.includes(request.method)) return done();
    const allowed = methods.join(', ');
    reply
      .code(405)
      .header('allow', allowed)
      .header('content-type', 'application/json; charset=utf-8')
      .send(body({ status: 405, code: 'method_not_allowed', message: `This path serves ${allowed} only` }));
  });
}

/** `/api/v1/stores/:id` → a pattern matching `/api/v1/stores/<one segment>` (and `*` any rest). */
function patternOf(url: string): RegExp {
  const escaped = url.replace(/[.+?^$()|[\]\\{}]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/:[A-Za-z0-9_]+/g, '[^/]+').replace(/\*/g, '.*')}$`);
}
