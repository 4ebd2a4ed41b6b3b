import { Logger, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { PATTERN_HANDLER_METADATA } from '@nestjs/microservices/constants';
import { PatternHandler } from '@nestjs/microservices/enums/pattern-handler.enum';
import { KafkaContext } from '@nestjs/microservices';
import { catchError, retry, throwError, type Observable } from 'rxjs';
import { BusClosedError, waitUnlessClosed } from './bus-closing';
import type { Bus } from './bus.port';
import { DEAD_LETTER_TOPIC, deadLetter, EVENT_HANDLER_ATTEMPTS } from './dead-letter';
import { isOutage } from './outage';
import { patternOf } from './rpc-error.filter';

/** Back-off while a store is out of reach: from 0.1 s, doubling, at most this far apart. */
const OUTAGE_FIRST_RETRY_MS = 100;
const OUTAGE_MAX_RETRY_MS = 5_000;

/**
 * Retries for event handlers, on every transport. On Kafka a handler's error reaches kafkajs, which restarts the
 * consumer on the same offset forever: one poisoned event stalls the service, commands included where they share
 * the consumer. Here a failing handler is run again (Nest runs the handler anew on every subscription):
 * - while its failure is an outage (`isOutage`: a MongoDB election, EventStoreDB restarting or past its deadline),
 *   for as long as the outage lasts, with back-off. The handler does not complete meanwhile, so the offset is not
 *   committed and the partition's later events wait behind it: a crash resumes at this event, nothing is lost.
 * - otherwise a bounded number of times; then its event goes to the dead-letter topic with the error, logged, and
 *   the handler completes, so the offset is committed and the next message handled. Only a failure that the
 *   same event will meet again (a bug, a payload nothing can handle) gets there.
 * Once `closing` aborts (the application shuts down) a handler is run no more: its event fails unhandled, not
 * dead-lettered, and on Kafka the group hands it, uncommitted, to another member.
 */
export class EventRetryInterceptor implements NestInterceptor {
  private readonly logger = new Logger(EventRetryInterceptor.name);

  constructor(
    private readonly bus: Bus,
    private readonly closing: AbortSignal,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (Reflect.getMetadata(PATTERN_HANDLER_METADATA, context.getHandler()) !== PatternHandler.EVENT) return next.handle();
    let failedAttempts = 0;
    let outageRetryMs = OUTAGE_FIRST_RETRY_MS;
    const pattern = patternOf(context);
    return next.handle().pipe(
      retry({
        delay: (failure: unknown) => {
          if (isOutage(failure)) {
            const waitMs = outageRetryMs;
            outageRetryMs = Math.min(outageRetryMs * 2, OUTAGE_MAX_RETRY_MS);
            this.logger.warn(`An event handler of "${pattern}" waits for a store (${(failure as Error).message}); again in ${waitMs} ms`);
            return waitUnlessClosed(waitMs, this.closing, pattern);
          }
          failedAttempts += 1;
          if (failedAttempts >= EVENT_HANDLER_ATTEMPTS) return throwError(() => failure);
          // 0.1, 0.2, 0.4, 0.8 s apart: a blip passes, a poisoned event does not hold the partition long.
          return waitUnlessClosed(50 * 2 ** failedAttempts, this.closing, pattern);
        },
      }),
      catchError(async (failure: unknown) => {
        if (failure instanceof BusClosedError) throw failure;
        this.logger.error(
          `An event handler of "${pattern}" failed ${EVENT_HANDLER_ATTEMPTS} times; its event goes to ${DEAD_LETTER_TOPIC}`,
          failure instanceof Error ? failure.stack : String(failure),
        );
        const rpc = context.switchToRpc();
        const event = { topic: pattern, key: keyOf(rpc.getContext()), event: rpc.getData(), failure, at: new Date() };
        await this.bus.publish(DEAD_LETTER_TOPIC, deadLetter(event, EVENT_HANDLER_ATTEMPTS));
        // Nest's Kafka server awaits the last value: a value, not an empty completion.
        return null;
      }),
    );
  }
}

/** The Kafka message key of the event (the in-process transport has none). */
function keyOf(transportContext: unknown): string | null {
  if (!(transportContext instanceof KafkaContext)) return null;
  return transportContext.getMessage().key?.toString() ?? null;
}
