import {
  excludeSystemEvents,
  type AllStreamRecordedEvent,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type EventStoreDBClient,
} from '@eventstore/db-client';
import { matchesFilter, type SubscribeOptions, type Subscription } from '../event-store.port';
import { readPositionAfter, toPortPosition, toRecordedEvent } from './esdb-positions';

export interface SubscriptionHost {
  headPosition(): Promise<number>;
  forget(subscription: EsdbSubscription): void;
}

/**
 * A catch-up subscription to $all. The server drops only its own `$` events; the port's filter is applied here,
 * so every user event moves `seen` forward and `onCaughtUp` can report how far the subscription has looked
 * even when nothing matched (a server-side filter would hide that between its sparse checkpoints).
 *
 * Caught up means: the server said so (`caughtUp`, servers 23.10+), or the subscription has passed the newest
 * event that existed when it started. After that, it reports again each time it runs out of buffered events.
 */
export class EsdbSubscription implements Subscription {
  private readonly upstream: AllStreamSubscription;
  private seen: number;
  private headAtStart?: number;
  private serverCaughtUp = false;
  private reported?: number;
  private busy = false;
  private stopped = false;
  private handling: Promise<void> = Promise.resolve();

  constructor(
    client: EventStoreDBClient,
    private readonly options: SubscribeOptions,
    private readonly host: SubscriptionHost,
  ) {
    this.seen = options.fromPosition ?? 0;
    this.upstream = client.subscribeToAll({ fromPosition: readPositionAfter(this.seen), filter: excludeSystemEvents() });
    this.upstream.on('data', (resolved: AllStreamResolvedEvent) => this.receive(resolved));
    this.upstream.on('caughtUp', () => {
      this.serverCaughtUp = true;
      this.reportIfIdle();
    });
    this.upstream.on('error', (error: Error) => this.drop(error));
    this.upstream.on('close', () => this.drop(new Error('EventStoreDB closed the subscription')));
    host.headPosition().then(
      (head) => {
        this.headAtStart = head;
        this.reportIfIdle();
      },
      (error: unknown) => this.drop(error),
    );
  }

  async stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      this.host.forget(this);
      await this.cancelUpstream();
    }
    await this.handling;
  }

  private receive(resolved: AllStreamResolvedEvent): void {
    if (this.stopped || !resolved.event) return;
    this.busy = true;
    this.upstream.pause();
    this.handling = this.handle(resolved.event).then(
      () => {
        this.busy = false;
        if (this.stopped) return;
        this.upstream.resume();
        this.reportIfIdle();
      },
      (error: unknown) => this.drop(error),
    );
  }

  private async handle(stored: AllStreamRecordedEvent): Promise<void> {
    const position = toPortPosition(stored.position);
    // The server starts at `fromPosition` inclusive; the port's is exclusive.
    if (position <= this.seen) return;
    const event = toRecordedEvent(stored);
    if (event && matchesFilter(event, this.options.filter)) await this.options.onEvent(event);
    this.seen = position;
  }

  private reportIfIdle(): void {
    if (this.stopped || this.busy || this.upstream.readableLength > 0) return;
    const caughtUp = this.serverCaughtUp || (this.headAtStart !== undefined && this.seen >= this.headAtStart);
    if (!caughtUp || this.reported === this.seen) return;
    this.reported = this.seen;
    this.options.onCaughtUp?.(this.seen);
  }

  private drop(error: unknown): void {
    if (this.stopped) return;
    this.stopped = true;
    this.host.forget(this);
    void this.cancelUpstream();
    // Reported once no handler runs any more, so a resubscription never overlaps this subscription's handler.
    void this.handling.then(() => this.options.onDropped?.(error instanceof Error ? error : new Error(String(error))));
  }

  private async cancelUpstream(): Promise<void> {
    // The call may never have been established (that failure is what dropped it): nothing left to cancel then.
    await this.upstream.unsubscribe().catch(() => undefined);
    this.upstream.destroy();
  }
}
