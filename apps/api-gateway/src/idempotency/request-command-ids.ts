import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { CommandIds } from '@pss/bus';
import { deterministicUuid } from '@pss/kernel';

const COMMAND_IDS = Symbol('commandIds');

/** A request the IdempotencyInterceptor is running under an Idempotency-Key. */
export interface IdempotentRequest {
  [COMMAND_IDS]?: CommandIds;
}

/**
 * Gives the request the ids its commands are to have, derived from the organization's Idempotency-Key: if an
 * attempt times out (503, key released) while its command still runs, the retry sends the same command ids and
 * is answered the resource the first one created.
 */
export function assignCommandIds(request: IdempotentRequest, scope: string, key: string): void {
  request[COMMAND_IDS] = new CommandIds(deterministicUuid('idempotency', scope, key));
}

/**
 * The request's command ids (undefined without an Idempotency-Key), for `bus.request(…, { commandIds })`: every
 * command an `@Idempotent()` route sends passes them on.
 */
export const RequestCommandIds = createParamDecorator(
  (_data: unknown, context: ExecutionContext): CommandIds | undefined => context.switchToHttp().getRequest<IdempotentRequest>()[COMMAND_IDS],
);
