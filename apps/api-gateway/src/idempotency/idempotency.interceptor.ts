import { Inject, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { defer, lastValueFrom, of, type Observable } from 'rxjs';
import { DomainError } from '@pss/kernel';
import { IDEMPOTENCY_STORE, requestFingerprint, type Claim, type IdempotencyStore, type StoredResponse } from '@pss/idempotency';
import { SecretBox } from '@pss/secrets';
import { PRINCIPAL, type AuthenticatedRequest } from '../auth/principal';
import { errorBody, statusOf } from '../http/error-response';
import { HttpDomainError } from '../http/exceptions.filter';
import { idempotencyKeyOf } from './idempotency-key';
import { assignCommandIds, type IdempotentRequest } from './request-command-ids';

const REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * Idempotency-Key on `@Idempotent()` routes (DESIGN.md section 4). An interceptor, so it runs after the guard:
 * keys belong to the acting organization. The first request claims the key, runs and leaves its response;
 * retries with the same request get that response again, marked `Idempotent-Replayed: true`.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    @Inject(IDEMPOTENCY_STORE) private readonly store: IdempotencyStore,
    private readonly secrets: SecretBox,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest & AuthenticatedRequest & IdempotentRequest>();
    const key = idempotencyKeyOf(request.headers);
    if (key === undefined) return next.handle();
    const principal = request[PRINCIPAL];
    if (!principal) throw new Error(`@Idempotent() on ${context.getClass().name}.${context.getHandler().name}, a public route`);
    const scope = principal.actingOrgId;
    const fingerprint = requestFingerprint({ method: request.method, url: lowercaseIds(request.url), scope, body: request.body });
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const result = await this.store.claim({ scope, key, fingerprint });
    // Stored responses are sealed: a replayed create can carry a secret shown once (a webhook's signing secret).
    const sealing = `idempotency:${scope}:${key}`;
    switch (result.kind) {
      case 'replay':
        return of(replay(reply, { ...result.response, body: this.secrets.open(result.response.body, sealing) }));
      case 'in_progress':
        throw new DomainError('idempotency_in_progress', 'A request with this Idempotency-Key is still in progress; retry later');
      case 'key_reused':
        throw new DomainError('idempotency_key_reused', 'This Idempotency-Key was already used for another request');
      case 'run':
        // A promise inside, which no unsubscription stops: the response is kept even if the client hangs up.
        // Its commands' ids derive from the key (the route passes them on: RequestCommandIds).
        assignCommandIds(request, scope, key);
        return defer(() => this.runOnce(result.claim, next, reply, sealing));
    }
  }

  private async runOnce(claim: Claim, next: CallHandler, reply: FastifyReply, sealing: string): Promise<unknown> {
    const sealed = (response: StoredResponse): StoredResponse => ({ ...response, body: this.secrets.seal(response.body, sealing) });
    let value: unknown;
    try {
      value = await lastValueFrom(next.handle());
    } catch (error) {
      const refusal = replayableRefusal(error);
      await (refusal ? this.store.complete(claim, sealed(refusal)) : this.store.release(claim));
      throw error;
    }
    // Fastify serializes the value with JSON.stringify as well: the replay is byte for byte the first answer.
    await this.store.complete(claim, sealed({ status: reply.statusCode, body: JSON.stringify(value) ?? '' }));
    return value;
  }
}

function replay(reply: FastifyReply, response: StoredResponse): string {
  reply.status(response.status).header(REPLAYED_HEADER, 'true');
  if (response.body) reply.type('application/json; charset=utf-8');
  return response.body;
}

/**
 * The refusals replayed like responses: the request was understood and refused for good (403 plan_limit, 404,
 * 409 conflict), as the same request would be again. Not kept, so a retry runs again: 400 (refused before
 * anything ran, so a corrected request may use the key), 429, 5xx (503 service_unavailable included), errors
 * that are no DomainError, and errors with headers of their own (those are not stored).
 */
function replayableRefusal(error: unknown): StoredResponse | undefined {
  if (!(error instanceof DomainError) || error instanceof HttpDomainError) return undefined;
  const status = statusOf(error.code);
  if (status <= 400 || status >= 500 || status === 429) return undefined;
  return { status, body: JSON.stringify(errorBody(error.code, error.message, error.details)) };
}

/** Path ids are read in any case (UuidPipe): a retry spelling one in upper case is the same request. */
const lowercaseIds = (url: string): string => url.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, (id) => id.toLowerCase());
