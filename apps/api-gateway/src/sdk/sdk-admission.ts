import { Inject, Injectable, Logger } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { StoreDocument } from '@pss/contracts';
import { Metrics, type RateLimitName } from '@pss/metrics';
import type { Frozen } from '@pss/read-store';
import { answerError } from '../http/exceptions.filter';
import { rateLimited } from '../rate-limit/enforce-rate-limit';
import type { RateLimiter } from '../rate-limit/rate-limiter';
import type { RateLimitDecision } from '../rate-limit/token-bucket';
import { clientGroup } from './client-group';
import { SDK_CORS } from './sdk-cors';
import { SdkKeys } from './sdk-keys';
import { SDK_CLIENT_RATE_LIMITER, SDK_RATE_LIMITER } from './sdk-rate-limiter';

/** Route config (`@RouteConfig`) of the SDK routes that take a store's public key and draw on its rate. */
export const SDK_ADMITTED = { sdkAdmitted: true } as const;

/**
 * Who may call an SDK route with a store's public key, decided at `onRequest`, before any body is read: the key
 * (401, or 403 for a suspended store), then the caller's share of the store's rate, then the store's rate (429).
 * The key is public, so anyone may spend the store's rate: one address taking it all would refuse the store's
 * real pages and blind its monitoring. An address may take a tenth of it, so a flood needs ten addresses or more
 * to reach the real pages (docs/decisions.md, "SDK rate"); an IPv6 client is its /64 (`clientGroup`). A refused
 * request costs a header parse and two map reads, never its body.
 */
@Injectable()
export class SdkAdmission {
  private readonly logger = new Logger('Http');
  private readonly admitted = new WeakMap<FastifyRequest, Frozen<StoreDocument>>();

  constructor(
    private readonly keys: SdkKeys,
    @Inject(SDK_CLIENT_RATE_LIMITER) private readonly clients: RateLimiter,
    @Inject(SDK_RATE_LIMITER) private readonly stores: RateLimiter,
    private readonly metrics: Metrics,
  ) {}

  /** A callback hook, not an async one: every other route passes it at the cost of one comparison, with no promise. */
  install(fastify: FastifyInstance): void {
    fastify.addHook('onRequest', (request, reply, done) => {
      if (!(request.routeOptions.config as { sdkAdmitted?: boolean } | undefined)?.sdkAdmitted) return done();
      reply.headers(SDK_CORS);
      this.admit((request.query as { key?: unknown }).key, request.ip).then(
        (store) => {
          this.admitted.set(request, store);
          done();
        },
        (error: unknown) => answerError(reply, error, this.logger), // answered here: the request goes no further
      );
    });
  }

  /** The store the request was admitted for. */
  storeOf(request: FastifyRequest): Frozen<StoreDocument> {
    const store = this.admitted.get(request);
    if (!store) throw new Error(`${request.method} ${request.url} reached its handler without SDK admission`);
    return store;
  }

  private async admit(key: unknown, client: string): Promise<Frozen<StoreDocument>> {
    const store = await this.keys.storeOf(key);
    this.refuseWhenSpent(this.clients.take(`${store._id} ${clientGroup(client)}`), 'sdk_client');
    this.refuseWhenSpent(this.stores.take(store._id), 'sdk_store');
    return store;
  }

  private refuseWhenSpent(decision: RateLimitDecision, limit: RateLimitName): void {
    if (decision.allowed) return;
    this.metrics.rateLimited(limit);
    throw rateLimited(decision.retryAfterSeconds);
  }
}
