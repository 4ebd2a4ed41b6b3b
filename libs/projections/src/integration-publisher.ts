import type { LoggerService } from '@nestjs/common';
import type { Bus } from '@pss/bus';
import { yieldToRequests } from '@pss/kernel';
import type { CheckpointStore, EventFilter, EventStore, RecordedEvent } from '@pss/event-store';
import type { IntegrationEvent } from '@pss/contracts';
import { DeliveryWindow } from './delivery-window';
import { ResubscribingSubscription } from './resubscribing-subscription';

/** What a service publishes for its domain events: zero or more integration events each. */
export interface IntegrationEventSource {
  /** Names the publisher's checkpoint, e.g. `inventory`. */
  readonly name: string;
  readonly filter: EventFilter;
  toIntegrationEvents(event: RecordedEvent): IntegrationEvent<unknown>[];
}

const CHECKPOINT_EVERY = 100;
/**
 * Events on the bus at once. One at a time, each consumer's append was a commit of its own (one fsync per fact);
 * with many in flight their appends share a commit (group commit). Events of one key (the store, or the
 * organization) stay in order, as on a Kafka partition.
 */
const DELIVERIES_IN_FLIGHT = 64;
const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5_000;
/**
 * An idle publisher records its checkpoint this long after it caught up, not at once: under a steady stream of
 * writes it catches up after nearly every event, and a durable write each time (an fsync on SQLite) would hold
 * the event loop more than the publishing does. A crash repeats at most this much, which consumers deduplicate.
 */
const CAUGHT_UP_CHECKPOINT_DELAY_MS = 1_000;
/**
 * Refusals in a row (with back-off, about 1.5 s) after which the publisher counts as stalled: one drop is a blip
 * that the next subscription mends; a refusal repeated is a publisher that will publish nothing until someone acts.
 */
const STALLED_AFTER_DROPS = 4;

/**
 * Publishes integration events from the event store to the bus, with its own durable checkpoint: the event
 * store is the outbox, so there is no dual write. Delivery is at least once; consumers deduplicate by `id`.
 */
export class IntegrationPublisher {
  private window = new DeliveryWindow(DELIVERIES_IN_FLIGHT);
  private checkpointed = 0;
  private sinceCheckpoint = 0;
  private subscription?: ResubscribingSubscription;
  private pendingSave?: NodeJS.Timeout;
  private stopping = false;

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
    return this.window.settledPosition;
  }

  /** Its subscription keeps being refused (a position the store will not resume from, the store unreachable). */
  get stalled(): boolean {
    return (this.subscription?.dropsInARow ?? 0) >= STALLED_AFTER_DROPS;
  }

  private get checkpointName(): string {
    return IntegrationPublisher.checkpointOf(this.source.name);
  }

  /** The checkpoint of `source`'s publisher: how far another process has published it. */
  static checkpointOf(source: string): string {
    return `publisher:${source}`;
  }

  async start(): Promise<void> {
    this.checkpointed = (await this.checkpoints.load(this.checkpointName)) ?? 0;
    this.window = new DeliveryWindow(DELIVERIES_IN_FLIGHT, this.checkpointed);
    this.subscription = new ResubscribingSubscription(this.eventStore, this.logger, `publisher ${this.source.name}`, {
      fromPosition: () => this.window.settledPosition,
      filter: this.source.filter,
      onEvent: (event) => this.publish(event),
      onCaughtUp: (position) => this.caughtUp(position),
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.subscription?.stop();
    clearTimeout(this.pendingSave);
    await this.window.drain();
    await this.save();
  }

  private async publish(event: RecordedEvent): Promise<void> {
    // Consumers fan out behind this (alerts, deliveries): each event starts in a fresh slice if one is spent.
    await yieldToRequests();
    const messages = this.source.toIntegrationEvents(event);
    if (messages.length) await this.window.admit(event.position, keyOf(messages[0]), () => this.deliver(messages));
    else this.window.skipTo(event.position);
    this.sinceCheckpoint += 1;
    if (this.sinceCheckpoint >= CHECKPOINT_EVERY) await this.save();
  }

  /**
   * Publishes an event's messages, again and again while the bus refuses them (a broker down): the window holds
   * the checkpoint before it and the key's later events behind it meanwhile. Gives up only when stopping, so the
   * next start publishes it again.
   */
  private async deliver(messages: IntegrationEvent<unknown>[]): Promise<void> {
    for (const message of messages) {
      for (let retryMs = FIRST_RETRY_MS; ; retryMs = Math.min(retryMs * 2, MAX_RETRY_MS)) {
        try {
          await this.bus.publish(message.type, message, { key: keyOf(message) });
          break;
        } catch (failure) {
          if (this.stopping) throw failure;
          this.logger.warn?.(`publisher ${this.name}: ${message.type} not published, again in ${retryMs} ms: ${(failure as Error).message}`);
          await new Promise((resolve) => setTimeout(resolve, retryMs));
        }
      }
    }
  }

  private caughtUp(position: number): void {
    this.window.skipTo(position);
    if (this.pendingSave) return;
    this.pendingSave = setTimeout(() => {
      this.pendingSave = undefined;
      this.save().catch((error: Error) => this.logger.warn?.(`publisher checkpoint not saved: ${error.message}`));
    }, CAUGHT_UP_CHECKPOINT_DELAY_MS);
    this.pendingSave.unref();
  }

  private async save(): Promise<void> {
    const position = this.window.settledPosition;
    if (position === this.checkpointed) return;
    await this.checkpoints.save(this.checkpointName, position);
    this.checkpointed = position;
    this.sinceCheckpoint = 0;
  }
}

/** The Kafka message key, and the order the window keeps: a store's facts, else its organization's. */
const keyOf = (message: IntegrationEvent<unknown>): string | undefined => message.store_id ?? message.org_id ?? undefined;
