import type { LoggerService } from '@nestjs/common';
import type { EventFilter, EventStore, RecordedEvent, Subscription } from '@pss/event-store';

export interface ResubscribingOptions {
  /** Asked at every (re)subscription: where the consumer's own progress stands. */
  fromPosition(): number;
  filter?: EventFilter;
  onEvent(event: RecordedEvent): Promise<void>;
  onCaughtUp?(position: number): void;
}

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5_000;

/**
 * A subscription that survives drops (a handler error, a lost connection): it resubscribes from the consumer's
 * own progress with exponential back-off, so nothing is skipped and nothing acknowledged is delivered twice.
 */
export class ResubscribingSubscription implements Subscription {
  private current?: Subscription;
  private retryTimer?: NodeJS.Timeout;
  private retryMs = FIRST_RETRY_MS;
  private stopped = false;
  /** Drops since the subscription last delivered an event or caught up: a count that only grows is a refusal. */
  dropsInARow = 0;

  constructor(
    private readonly eventStore: EventStore,
    private readonly logger: LoggerService,
    private readonly label: string,
    private readonly options: ResubscribingOptions,
  ) {
    this.subscribe();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    await this.current?.stop();
  }

  private subscribe(): void {
    if (this.stopped) return;
    this.current = this.eventStore.subscribeToAll({
      fromPosition: this.options.fromPosition(),
      filter: this.options.filter,
      onEvent: async (event) => {
        await this.options.onEvent(event);
        this.retryMs = FIRST_RETRY_MS;
        this.dropsInARow = 0;
      },
      onCaughtUp: (position) => {
        this.dropsInARow = 0;
        this.options.onCaughtUp?.(position);
      },
      onDropped: (error) => this.dropped(error),
    });
  }

  private dropped(error: Error): void {
    if (this.stopped) return;
    this.dropsInARow += 1;
    this.logger.error(`${this.label} dropped, resubscribing in ${this.retryMs} ms: ${error.message}`, error.stack);
    this.retryTimer = setTimeout(() => this.subscribe(), this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }
}
