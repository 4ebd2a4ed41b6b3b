import { ArgumentsHost, Catch, Logger, RpcExceptionFilter } from '@nestjs/common';
import { KafkaContext } from '@nestjs/microservices';
import { DomainError, SerializedError, serializeError } from '@pss/kernel';
import { Observable, throwError } from 'rxjs';
import { InProcessContext } from './in-process/in-process.server';
import { isOutage } from './outage';

/**
 * Carries a handler's failure back to the caller in the SerializedError shape, on every transport. Without it Nest
 * replies `{status: 'error', message: 'Internal server error'}` to everything and the caller loses the code.
 *
 * A DomainError is an answer (conflict, not_found, ...) and goes back as it is. A store out of reach is
 * `service_unavailable` (503, retryable). Anything else is a bug: the caller gets `internal_error` without
 * details, and the details go to the log here.
 */
@Catch()
export class RpcErrorFilter implements RpcExceptionFilter<unknown, SerializedError> {
  private readonly logger = new Logger(RpcErrorFilter.name);

  catch(failure: unknown, host: ArgumentsHost): Observable<never> {
    if (isOutage(failure)) {
      this.logger.warn(`The handler of "${patternOf(host)}" found a store out of reach: ${(failure as Error).message}`);
      return throwError(() => serializeError(new DomainError('service_unavailable', 'A data store is unavailable; retry shortly')));
    }
    if (!(failure instanceof DomainError)) {
      this.logger.error(
        `The handler of "${patternOf(host)}" failed`,
        failure instanceof Error ? failure.stack : String(failure),
      );
    }
    return throwError(() => serializeError(failure));
  }
}

/** The topic or pattern a handler was called for, on every transport. */
export const patternOf = (host: ArgumentsHost): string => {
  const context: unknown = host.switchToRpc().getContext();
  if (context instanceof KafkaContext) return context.getTopic();
  if (context instanceof InProcessContext) return context.getPattern();
  return 'an unknown pattern';
};
