import { Logger, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { DomainError } from '@pss/kernel';
import { map, type Observable } from 'rxjs';
import { commandMetaOf } from './command-meta';

/**
 * The largest reply a handler may send: Kafka's default `message.max.bytes` is 1 MiB, and the reply's envelope
 * (correlation id, headers) needs some room of it.
 */
export const MAX_REPLY_BYTES = 1_000_000;

/**
 * Drops a command whose caller stopped waiting before it arrived: on Kafka a command queued behind others, or
 * redelivered after a rebalance, would otherwise create a store the client was told did not happen (503), and its
 * retry would then meet a 409. The caller is gone; the answer only says so in the log. A command in time goes to
 * its handler, which passes `command.deadline` on in its CommandContext so every wait of its ends before it.
 *
 * A reply larger than the bus carries is refused here, explicitly: on Kafka the broker refuses it and Nest does
 * not await the reply's send, so the caller only ever saw a timeout (503) for a request that will never fit.
 */
export class CommandDeadlineInterceptor implements NestInterceptor {
  private readonly logger = new Logger(CommandDeadlineInterceptor.name);

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const meta = commandMetaOf(context.switchToRpc().getData());
    if (meta && Date.parse(meta.deadline) <= Date.now()) {
      this.logger.warn(`Command ${meta.id} dropped unexecuted: its deadline ${meta.deadline} has passed`);
      throw new DomainError('service_unavailable', 'The command expired before it ran');
    }
    return next.handle().pipe(map((reply: unknown) => withinLimit(reply)));
  }
}

function withinLimit(reply: unknown): unknown {
  const bytes = Buffer.byteLength(JSON.stringify(reply) ?? '');
  if (bytes <= MAX_REPLY_BYTES) return reply;
  throw new DomainError(
    'payload_too_large',
    `The answer (${bytes} bytes) is larger than the bus carries (${MAX_REPLY_BYTES}); ask for less at once (one store, a smaller page)`,
  );
}
