import { EventFilter, RecordedEvent, SubscribeOptions, Subscription } from '../event-store.port';

/** What a subscription needs from its store. */
export interface SubscriptionSource {
  head(): number;
  /** Events in (after, upTo], filtered, in position order, at most `limit`. */
  read(after: number, upTo: number, filter: EventFilter | undefined, limit: number): RecordedEvent[];
  forget(subscription: SqliteSubscription): void;
}

/**
 * Catch-up then live over the events table. Each round reads the head first and then the events up to it, so
 * "looked through the head" is true even when a filter matched nothing (writers are serialized, so every event
 * at or below a visible head is itself visible). Between rounds it sleeps until an append through this process
 * wakes it or the poll interval passes, which is how appends by other processes on the file are seen.
 */
export class SqliteSubscription implements Subscription {
  private stopped = false;
  private pendingWake = false;
  private wakeUp?: () => void;
  private running?: Promise<void>;

  constructor(
    private readonly source: SubscriptionSource,
    private readonly options: SubscribeOptions,
    private readonly settings: { pollIntervalMs: number; pageSize: number; scanWindow: number },
  ) {}

  start(): void {
    this.running = this.run().then(
      () => this.source.forget(this),
      (error: unknown) => this.drop(error),
    );
  }

  /** New events may be there: cut the current sleep short (or skip the next one). */
  wake(): void {
    this.pendingWake = true;
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.running;
  }

  private async run(): Promise<void> {
    let position = this.options.fromPosition ?? 0;
    let reported: number | undefined;
    // Let the caller hold the Subscription before its first handler runs.
    await Promise.resolve();
    while (!this.stopped) {
      this.pendingWake = false;
      const head = this.source.head();
      const upTo = Math.min(head, position + this.settings.scanWindow);
      const page = this.source.read(position, upTo, this.options.filter, this.settings.pageSize);
      for (const event of page) {
        if (this.stopped) return;
        await this.options.onEvent(event);
        position = event.position;
      }
      if (page.length === this.settings.pageSize || upTo < head) {
        // Looked through the window without filling a page: nothing more matches up to its end.
        if (page.length < this.settings.pageSize) position = upTo;
        // A long catch-up runs synchronous reads back to back: let the process's I/O in between pages.
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      position = Math.max(position, head);
      if (this.stopped) return;
      if (reported !== position) {
        reported = position;
        this.options.onCaughtUp?.(position);
      }
      await this.sleep();
    }
  }

  private sleep(): Promise<void> {
    if (this.pendingWake || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.wakeUp?.(), this.settings.pollIntervalMs);
      this.wakeUp = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
    });
  }

  private drop(error: unknown): void {
    this.source.forget(this);
    // A handler failing while the caller stops the subscription is not a drop: the caller asked for the stop.
    if (this.stopped) return;
    this.stopped = true;
    this.options.onDropped?.(error instanceof Error ? error : new Error(String(error)));
  }
}
