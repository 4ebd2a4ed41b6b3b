import { Logger, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { PATTERN_HANDLER_METADATA } from '@nestjs/microservices/constants';
import { PatternHandler } from '@nestjs/microservices/enums/pattern-handler.enum';
import { KafkaContext } from '@nestjs/microservices';
import { catchError, retry, timer, type Observable } from 'rxjs';
import type { Bus } from './bus.port';
import { DEAD_LETTER_TOPIC, deadLetter, EVENT_HANDLER_ATTEMPTS } from './dead-letter';
import { patternOf } from './rpc-error.filter';

/**
 * Bounded retries for event handlers, on every transport. On Kafka a handler's error reaches kafkajs, which
 * restarts the consumer on the same offset forever: one poisoned event stalls the service, commands included where
 * they share the consumer. Here a failing handler is run again (Nest runs the handler anew on every subscription),
 * and after the last attempt its event goes to the dead-letter topic with the error, logged, and the handler
 * completes, so the offset is committed and the next message handled.
 */
export class EventRetryInterceptor implements NestInterceptor {
  private readonly logger = new Logger(EventRetryInterceptor.name);

  constructor(private readonly bus: Bus) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (Reflect.getMetadata(PATTERN_HANDLER_METADATA, context.getHandler()) !== PatternHandler.EVENT) return next.handle();
    return next.handle().pipe(
      // 0.1, 0.2, 0.4, 0.8 s apart: a blip of a store passes, a poisoned event does not hold the partition long.
      retry({ count: EVENT_HANDLER_ATTEMPTS - 1, delay: (_failure, attempt) => timer(50 * 2 ** attempt) }),
      catchError(async (failure: unknown) => {
        const topic = patternOf(context);
        this.logger.error(
          `An event handler of "${topic}" failed ${EVENT_HANDLER_ATTEMPTS} times; its event goes to ${DEAD_LETTER_TOPIC}`,
          failure instanceof Error ? failure.stack : String(failure),
        );
        const rpc = context.switchToRpc();
        const event = { topic, key: keyOf(rpc.getContext()), event: rpc.getData(), failure, at: new Date() };
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
