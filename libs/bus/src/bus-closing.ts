import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { DomainError } from '@pss/kernel';
import { fromEvent, mergeMap, race, throwError, timer, type Observable } from 'rxjs';

/**
 * Why an event handler stopped being retried: its application is shutting down and the event stays unhandled. A
 * DomainError, so the RPC error filter passes it on as it is rather than logging it as a bug.
 */
export class BusClosedError extends DomainError {
  constructor(pattern: string) {
    super('service_unavailable', `The bus server is closing; the event of "${pattern}" is left to another replica`);
  }
}

/**
 * Aborts once the application starts shutting down, before Nest closes its bus servers. Closing a server stops
 * new deliveries but not a handler under way: one waiting out an outage would retry for ever, keep a stopped
 * replica's process alive, and hold kafkajs' disconnect, which waits for the message being handled.
 */
@Injectable()
export class BusClosing implements BeforeApplicationShutdown {
  private readonly controller = new AbortController();
  readonly signal = this.controller.signal;

  beforeApplicationShutdown(): void {
    this.controller.abort();
  }
}

/** Emits after `ms`, or fails with BusClosedError as soon as `closing` aborts (at once when it already has). */
export function waitUnlessClosed(ms: number, closing: AbortSignal, pattern: string): Observable<unknown> {
  const closed = () => throwError(() => new BusClosedError(pattern));
  if (closing.aborted) return closed();
  return race(timer(ms), fromEvent(closing, 'abort').pipe(mergeMap(closed)));
}
