import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { PRINCIPAL, type AuthenticatedRequest } from '../auth/principal';
import { HttpDomainError } from '../http/exceptions.filter';
import { RateLimiter } from './rate-limiter';

/**
 * Limits each API token (DESIGN.md section 4: 429 `rate_limited` with `Retry-After`). An interceptor, so it runs
 * after the guard and knows the token; public routes have no principal and are not limited. Every limited
 * response says how much is left: `RateLimit-Limit` (the burst) and `RateLimit-Remaining` (requests that may
 * follow at once).
 */
@Injectable()
export class RateLimitInterceptor implements NestInterceptor {
  constructor(private readonly limiter: RateLimiter) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const principal = context.getType() === 'http' ? context.switchToHttp().getRequest<FastifyRequest & AuthenticatedRequest>()[PRINCIPAL] : undefined;
    if (!principal) return next.handle();
    const decision = this.limiter.take(principal.tokenId);
    const limit = String(this.limiter.policy.burst);
    if (!decision.allowed) {
      const seconds = decision.retryAfterSeconds;
      throw new HttpDomainError('rate_limited', `Rate limit exceeded; retry after ${seconds} seconds`, {
        'Retry-After': String(seconds),
        'RateLimit-Limit': limit,
        'RateLimit-Remaining': '0',
      });
    }
    context.switchToHttp().getResponse<FastifyReply>().headers({ 'RateLimit-Limit': limit, 'RateLimit-Remaining': String(decision.remaining) });
    return next.handle();
  }
}
