import type { LoggerService } from '@nestjs/common';
import type { Bus } from '@pss/bus';
import { yieldToRequests } from '@pss/kernel';
import type { CheckpointStore, EventFilter, EventStore, RecordedEvent } from '@pss/event-store';
import type { IntegrationEvent } from '@pss/contracts';
import { ResubscribingSubscription } from './resubscribing-subscription';

/** What a service publishes for its domain events: zero or more integration events each. */
export interface IntegrationEventSource {
  /** Names the publisher's checkpoint, e.g. `inventory`. */
  readonly name: string;
  readonly filter: EventFilter;
  toIntegrationEvents(event: RecordedEvent): IntegrationEvent[];
}

const CHECKPOINT_EVERY = 100;
/**
 * An idle publisher records its checkpoint this long after it caught up, not at once: under a steady stream of
 * writes it catches up after nearly every event, and a durable write each time (an fsync on SQLite) would hold
 * the event loop more than the publishing does. A crash repeats at most this much, which consumers deduplicate.
 */
const CAUGHT_UP_CHECKPOINT_DELAY_MS = 1_000;

/**
 * Publishes integration events from the event store to the bus, with its own durable checkpoint: the event
 * store is the outbox, so there is no dual write. Delivery is at least once; consumers deduplicate by `id`.
 */
export class IntegrationPublisher {
  private position = 0;
  private checkpointed = 0;
  private sinceCheckpoint = 0;
  private subscription?: ResubscribingSubscription;
  private pendingSave?: NodeJS.Timeout;

  constructor(
    private readonly source: IntegrationEventSource,
    private readonly eventStore: EventStore,
    private readonly checkpoints: CheckpointStore,
    private readonly bus: Bus,
    private readonly logger: LoggerService,
  ) {}

  get name(): string {
    return this.source.name;
  }

  /** Everything up to this event-store position is on the bus (or was not for it). */
  get publishedPosition(): number {
    return this.position;
  }

  private get checkpointName(): string {
    return `publisher:${this.source.name}`;
  }

  async start(): Promise<void> {
    this.position = (await this.checkpoints.load(this.checkpointName)) ?? 0;
    this.checkpointed = this.position;
    this.subscription = new ResubscribingSubscription(this.eventStore, this.logger, `publisher ${this.source.name}`, {
      fromPosition: () => this.position,
      filter: this.source.filter,
      onEvent: (event) => this.publish(event),
      onCaughtUp: (position) => this.caughtUp(position),
    });
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    clearTimeout(this.pendingSave);
    await this.save();
  }

  private async publish(event: RecordedEvent): Promise<void> {
    // Consumers fan out behind this (alerts, deliveries): each event starts in a fresh slice if one is spent.
    await yieldToRequests();
    for (const message of this.source.toIntegrationEvents(event)) {
      await this.bus.publish(message.type, message, { key: message.store_id ?? message.org_id ?? undefined });
    }
    this.position = event.position;
    this.sinceCheckpoint += 1;
    if (this.sinceCheckpoint >= CHECKPOINT_EVERY) await this.save();
  }

  private caughtUp(position: number): void {
    if (position > this.position) this.position = position;
    if (this.pendingSave) return;
    this.pendingSave = setTimeout(() => {
      this.pendingSave = undefined;
      this.save().catch((error: Error) => this.logger.warn?.(`publisher checkpoint not saved: ${error.message}`));
    }, CAUGHT_UP_CHECKPOINT_DELAY_MS);
    this.pendingSave.unref();
  }

  private async save(): Promise<void> {
    if (this.position === this.checkpointed) return;
    const position = this.position;
    await this.checkpoints.save(this.checkpointName, position);
    this.checkpointed = position;
    this.sinceCheckpoint = 0;
  }
}
