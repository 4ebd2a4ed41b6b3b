import { Controller, Get, Headers, HttpCode, Inject, Options, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BUS, type Bus } from '@pss/bus';
import { COMMANDS } from '@pss/contracts';
import { DomainError } from '@pss/kernel';
import { Public } from '../auth/scopes.decorator';
import { HttpDomainError } from '../http/exceptions.filter';
import { RateLimiter } from '../rate-limit/rate-limiter';
import { checkBatch } from './sdk-batch';
import { SdkConfigDocument } from './sdk-config';
import { SdkKeys } from './sdk-keys';
import { SDK_RATE_LIMITER } from './sdk-rate-limiter';

/** SDK batches are small; a bigger one is a broken or hostile client. */
export const SDK_BODY_LIMIT_BYTES = 256 * 1024;
const CONFIG_MAX_AGE_SECONDS = 30;

/** The SDK runs on the shops' own pages: any origin may call, with the store's public key. */
const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, If-None-Match',
  'Access-Control-Max-Age': '86400',
};

/** SDK contract v1 (DESIGN.md section 5). */
@Controller('sdk/v1')
@Public()
export class SdkController {
  constructor(
    private readonly keys: SdkKeys,
    private readonly config: SdkConfigDocument,
    @Inject(SDK_RATE_LIMITER) private readonly limiter: RateLimiter,
    @Inject(BUS) private readonly bus: Bus,
  ) {}

  @Options(['config', 'events'])
  @HttpCode(204)
  preflight(@Res({ passthrough: true }) reply: FastifyReply): void {
    reply.headers(CORS);
  }

  @Get('config')
  async getConfig(
    @Query('key') key: unknown,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    reply.headers(CORS);
    const { body, etag } = await this.config.of(await this.keys.storeOf(key));
    reply.headers({ ETag: etag, 'Cache-Control': `public, max-age=${CONFIG_MAX_AGE_SECONDS}` });
    if (ifNoneMatch === etag) {
      reply.status(304);
      return undefined;
    }
    return body;
  }

  @Post('events')
  @HttpCode(202)
  async postEvents(@Query('key') key: unknown, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    reply.headers(CORS);
    if (Number(request.headers['content-length'] ?? 0) > SDK_BODY_LIMIT_BYTES) {
      throw new DomainError('payload_too_large', `SDK batches are limited to ${SDK_BODY_LIMIT_BYTES} bytes`);
    }
    const store = await this.keys.storeOf(key);
    const decision = this.limiter.take(store._id);
    if (!decision.allowed) {
      throw new HttpDomainError('rate_limited', `Rate limit exceeded; retry after ${decision.retryAfterSeconds} seconds`, {
        'Retry-After': String(decision.retryAfterSeconds),
      });
    }
    const batch = checkBatch(request.body);
    if (batch.accepted.length > 0) {
      await this.bus.request(COMMANDS.sdkIngest, {
        storeId: store._id,
        pageUrl: batch.pageUrl,
        sessionId: batch.sessionId,
        sdkVersion: batch.sdkVersion,
        observations: batch.accepted,
      });
    }
    return { accepted: batch.accepted.length, rejected: batch.rejected };
  }
}
