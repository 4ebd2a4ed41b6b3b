import { Logger, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { DomainError } from '@pss/kernel';
import { finalize, map, type Observable } from 'rxjs';
import { commandMetaOf } from './command-meta';

/**
 * The largest reply a handler may send: Kafka's default `message.max.bytes` is 1 MiB, and the reply's envelope
 * (correlation id, headers) needs some room of it.
 */
export const MAX_REPLY_BYTES = 1_000_000;
/**
 * How often a running command tells the broker its consumer is alive. kafkajs sends a heartbeat at most every
 * `heartbeatInterval` (3 s) however often it is asked, far inside the 30 s session timeout.
 */
export const HEARTBEAT_EVERY_MS = 1_000;

/**
 * Drops a command whose caller stopped waiting before it arrived: on Kafka a command queued behind others, or
 * redelivered after a rebalance, would otherwise create a store the client was told did not happen (503), and its
 * retry would then meet a 409. The caller is gone; the answer only says so in the log. A command in time goes to
 * its handler, which passes `command.deadline` on in its CommandContext so every wait of its ends before it.
 *
 * A long command (a policy applied to every script of a store, a report) heartbeats while it runs: kafkajs beats
 * only between messages, so past the session timeout the consumer was evicted, its whole group rebalanced and the
 * command was delivered again.
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
    const heartbeat = heartbeatOf(context.switchToRpc().getContext());
    const beating = heartbeat ? setInterval(() => void heartbeat().catch(() => undefined), HEARTBEAT_EVERY_MS) : undefined;
    return next.handle().pipe(
      map((reply: unknown) => withinLimit(reply)),
      finalize(() => clearInterval(beating)),
    );
  }
}

/** KafkaContext's heartbeat (and the in-process transport's); none on a transport without sessions. */
function heartbeatOf(transportContext: unknown): (() => Promise<void>) | undefined {
  const getHeartbeat = (transportContext as { getHeartbeat?: () => () => Promise<void> } | undefined)?.getHeartbeat;
  return typeof getHeartbeat === 'function' ? getHeartbeat.call(transportContext) : undefined;
}

function withinLimit(reply: unknown): unknown {
  const bytes = Buffer.byteLength(JSON.stringify(reply) ?? '');
  if (bytes <= MAX_REPLY_BYTES) return reply;
  throw new DomainError(
    'payload_too_large',
    `The answer (${bytes} bytes) is larger than the bus carries (${MAX_REPLY_BYTES}); ask for less at once (one store, a smaller page)`,
  );
}
