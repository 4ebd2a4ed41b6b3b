import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { PATTERN_HANDLER_METADATA } from '@nestjs/microservices/constants';
import { PatternHandler } from '@nestjs/microservices/enums/pattern-handler.enum';
import type { Observable } from 'rxjs';

/**
 * The one global interceptor of the bus's handlers: an event handler gets `events` (retries, dead letters), a
 * command handler `commands` (its deadline). Nest binds an async resource per interceptor on every call
 * (`AsyncResource.bind`, whose deprecated accessors Node builds anew each time): with both registered, every
 * fact paid two, and they were a fifth of the CPU while new scripts fanned out to their consumers.
 */
export class BusHandlersInterceptor implements NestInterceptor {
  constructor(
    private readonly commands: NestInterceptor,
    private readonly events: NestInterceptor,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> | Promise<Observable<unknown>> {
    const handlesEvents = Reflect.getMetadata(PATTERN_HANDLER_METADATA, context.getHandler()) === PatternHandler.EVENT;
    return (handlesEvents ? this.events : this.commands).intercept(context, next);
  }
}
