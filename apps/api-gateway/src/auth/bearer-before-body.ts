import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TOKEN_PATTERN } from '@pss/contracts';
import { answerError } from '../http/exceptions.filter';
import { API_PREFIX } from '../http/api-prefix';
import { bearerToken } from './bearer';
import { unauthorized } from './unauthorized';

/**
 * A request to the API that carries a body but no well-formed bearer token is answered 401 before its body is
 * read: an anonymous client neither makes the service parse up to a megabyte nor learns from a 400, 413 or 415
 * what the route would take. Every `/api/v1` route that takes a body needs a token (the public ones are GETs);
 * the token itself is still checked by the guard, after the body.
 */
@Injectable()
export class BearerBeforeBody implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const logger = new Logger('Http');
    this.adapterHost.httpAdapter.getInstance<FastifyInstance>().addHook('onRequest', (request, reply, done) => {
      if (!request.url.startsWith(`/${API_PREFIX}/`) || !carriesBody(request) || bearerToken(request.headers.authorization, TOKEN_PATTERN)) return done();
      answerError(reply, unauthorized('Missing or malformed bearer token'), logger);
    });
  }
}

const carriesBody = (request: FastifyRequest): boolean =>
  request.headers['transfer-encoding'] !== undefined || (request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0');
