import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { carriesBody } from '@pss/host';
import { answerError } from '../http/exceptions.filter';
import { API_PREFIX } from '../http/api-prefix';
import { RequestAdmission } from './request-admission';

/**
 * A request to the API that carries a body is authenticated before its body is read, and answered 401 without a
 * valid token: an anonymous client neither makes the service parse up to a megabyte nor learns from a 400, 413 or
 * 415 what the route would take. Every `/api/v1` route that takes a body needs a token (the public ones are GETs).
 * The guard admits the request after the body (request-admission.ts: token, rate limit, scope, org_id), the
 * token from the same cached check.
 */
@Injectable()
export class BearerBeforeBody implements OnModuleInit {
  private readonly logger = new Logger('Http');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly admission: RequestAdmission,
  ) {}

  onModuleInit(): void {
    this.adapterHost.httpAdapter.getInstance<FastifyInstance>().addHook('onRequest', async (request, reply) => {
      if (!request.url.startsWith(`/${API_PREFIX}/`) || !carriesBody(request.headers)) return;
      try {
        await this.admission.authenticate(request);
      } catch (error) {
        answerError(reply, error, this.logger);
        return reply;
      }
    });
  }
}
