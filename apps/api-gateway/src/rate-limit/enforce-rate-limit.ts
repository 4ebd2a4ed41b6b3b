import type { FastifyReply } from 'fastify';
import type { Metrics } from '@pss/metrics';
import { HttpDomainError } from '../http/exceptions.filter';
import type { RateLimiter } from './rate-limiter';

/**
 * Takes one request from the token's bucket (DESIGN.md section 4: 429 `rate_limited` with `Retry-After`), and
 * says on every limited response how much is left (IETF RateLimit headers draft, docs/api.md):
 * `RateLimit-Policy` (`120;w=6`: the bucket, 1200 a minute), `RateLimit-Limit` (the bucket's 120) and
 * `RateLimit-Remaining`. Called by the authentication guard once it knows the token, so public routes are never
 * limited and no interceptor sits on the hot path.
 */
export function enforceRateLimit(limiter: RateLimiter, tokenId: string, reply: FastifyReply, metrics: Metrics): void {
  const decision = limiter.take(tokenId);
  const headers = limiter.policyHeaders;
  if (!decision.allowed) {
    metrics.rateLimited('api_token');
    throw rateLimited(decision.retryAfterSeconds, { ...headers, 'RateLimit-Remaining': '0' });
  }
  reply.header('RateLimit-Policy', headers['RateLimit-Policy']);
  reply.header('RateLimit-Limit', headers['RateLimit-Limit']);
  reply.header('RateLimit-Remaining', String(decision.remaining));
}

/** The 429 of every limit (API tokens, SDK keys): `Retry-After` in seconds, and the limit's own headers. */
export const rateLimited = (retryAfterSeconds: number, headers: Record<string, string> = {}): HttpDomainError =>
  new HttpDomainError('rate_limited', `Rate limit exceeded; retry after ${retryAfterSeconds} seconds`, { 'Retry-After': String(retryAfterSeconds), ...headers });
