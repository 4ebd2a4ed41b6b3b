import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { isOutage } from '@pss/bus';
import { DomainError } from '@pss/kernel';
import { errorBody, statusOf } from './error-response';

/** Headers an error carries to the client (WWW-Authenticate on 401, Retry-After on 429). */
export class HttpDomainError extends DomainError {
  constructor(
    code: string,
    message: string,
    readonly headers: Record<string, string>,
  ) {
    super(code, message);
  }
}

// Malformed JSON is a DomainError from the body parser (libs/host json-body.ts); errors raised before routing
// (bad URL, over-long path parameter, HTTP parser) are answered by libs/host http-errors.ts.
const FASTIFY_CODES: Record<string, [code: string, message: string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', 'Request body is too large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'Request bodies must be application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['validation_error', 'Content-Length does not match the body'],
};

const HTTP_STATUS_CODES: Record<number, [code: string, message: string]> = {
  400: ['validation_error', 'Malformed request'],
  404: ['not_found', 'Route not found'],
  405: ['method_not_allowed', 'Method not allowed'],
  413: ['payload_too_large', 'Request body is too large'],
  415: ['unsupported_media_type', 'Request bodies must be application/json'],
};

/** Every error leaves the gateway in the one documented shape; nothing internal ever reaches a client. */
@Catch()
export class ExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Http');

  catch(exception: unknown, host: ArgumentsHost): void {
    answerError(host.switchToHttp().getResponse<FastifyReply>(), exception, this.logger);
  }
}

/** Answers an error in the one documented shape: the filter's work, also done by the fast reads (fast-reads.ts). */
export function answerError(reply: FastifyReply, exception: unknown, logger: Logger): void {
  if (exception instanceof DomainError) {
    if (exception instanceof HttpDomainError) reply.headers(exception.headers);
    if (exception.retryAfterSeconds) reply.header('Retry-After', String(exception.retryAfterSeconds));
    reply.status(statusOf(exception.code)).send(errorBody(exception.code, exception.message, exception.details));
    return;
  }
  const known = classify(exception);
  if (known) {
    reply.status(statusOf(known[0])).send(errorBody(known[0], known[1]));
    return;
  }
  logger.error({ message: 'unhandled error', error: (exception as Error)?.message, stack: (exception as Error)?.stack });
  reply.status(500).send(errorBody('internal_error', 'Internal error'));
}

function classify(exception: unknown): [string, string] | undefined {
  // The gateway's own reads (MongoDB) out of reach: a retryable 503, as the bus answers for the services.
  if (isOutage(exception)) return ['service_unavailable', 'A data store is unavailable; retry shortly'];
  const fastifyCode = (exception as { code?: string })?.code;
  if (fastifyCode && FASTIFY_CODES[fastifyCode]) return FASTIFY_CODES[fastifyCode];
  const status = exception instanceof HttpException ? exception.getStatus() : (exception as { statusCode?: number })?.statusCode;
  if (typeof status === 'number' && HTTP_STATUS_CODES[status]) return HTTP_STATUS_CODES[status];
  return undefined;
}
