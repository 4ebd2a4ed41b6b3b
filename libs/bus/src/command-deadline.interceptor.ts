import { Logger, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { DomainError } from '@pss/kernel';
import type { Observable } from 'rxjs';
import { commandMetaOf } from './command-meta';

/**
 * Drops a command whose caller stopped waiting before it arrived: on Kafka a command queued behind others, or
 * redelivered after a rebalance, would otherwise create a store the client was told did not happen (503), and its
 * retry would then meet a 409. The caller is gone; the answer only says so in the log. A command in time goes to
 * its handler, which passes `command.deadline` on in its CommandContext so every wait of its ends before it.
 */
export class CommandDeadlineInterceptor implements NestInterceptor {
  private readonly logger = new Logger(CommandDeadlineInterceptor.name);

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const meta = commandMetaOf(context.switchToRpc().getData());
    if (meta && Date.parse(meta.deadline) <= Date.now()) {
      this.logger.warn(`Command ${meta.id} dropped unexecuted: its deadline ${meta.deadline} has passed`);
      throw new DomainError('service_unavailable', 'The command expired before it ran');
    }
    return next.handle();
  }
}
