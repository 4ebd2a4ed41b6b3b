import { matchesFilter, type EventStore, type RecordedEvent, type Subscription } from '@pss/event-store';
import type { ReadStore } from '@pss/read-store';
import type { LoggerService } from '@nestjs/common';
import { yieldToRequests } from '@pss/kernel';
import { CHECKPOINT_COLLECTION, type CheckpointDocument, type Projection, type ProjectionContext } from './projection';
import { PositionWaiters } from './position-waiters';
import { ResubscribingSubscription } from './resubscribing-subscription';

/** How often (in handled events) a busy projection records its checkpoint; an idle one records it at once. */
const CHECKPOINT_EVERY = 200;

export type ProjectionState = 'starting' | 'catching_up' | 'live' | 'paused' | 'rebuilding';

/**
 * One projection kept up to date from the event store: subscribes from its checkpoint, hands every matching
 * event to the projection in order, records the checkpoint beside the data, and resubscribes after a drop.
 */
export class LiveProjection {
  state: ProjectionState = 'starting';
  /** Everything up to here has been looked at (handled, or skipped by the filter). */
  position = 0;
  private checkpointed = 0;
  private sinceCheckpoint = 0;
  private subscription?: Subscription;
  readonly waiters = new PositionWaiters();

  constructor(
    readonly projection: Projection,
    private readonly eventStore: EventStore,
    private readonly readStore: ReadStore,
    private readonly logger: LoggerService,
  ) {}

  readonly context: ProjectionContext = { collection: (name) => this.readStore.collection(this.ownCollection(name)) };

  async start(): Promise<void> {
    for (const [name, indexes] of Object.entries(this.projection.collections)) {
      await this.readStore.ensureIndexes(name, indexes);
    }
    const checkpoint = await this.readStore
      .collection<CheckpointDocument>(CHECKPOINT_COLLECTION)
      .findOne({ _id: this.projection.name });
    // After a fence, the shared checkpoint is the rebuild's, never behind what this replica had applied.
    this.resumeFrom(Math.max(this.position, checkpoint?.position ?? 0));
  }

  /** Starts (again) delivering events after `position`. */
  resumeFrom(position: number): void {
    this.position = position;
    this.checkpointed = position;
    this.state = 'catching_up';
    this.subscription = new ResubscribingSubscription(this.eventStore, this.logger, `projection ${this.projection.name}`, {
      fromPosition: () => this.position,
      filter: this.projection.filter,
      onEvent: (event) => this.apply(event),
      onCaughtUp: (position) => void this.caughtUp(position),
    });
  }

  async pause(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = undefined;
    await this.saveCheckpoint();
    this.state = 'paused';
  }

  async stop(): Promise<void> {
    await this.pause();
    this.waiters.rejectAll(new Error(`projection ${this.projection.name} stopped`));
  }

  isInterestedIn(event: Pick<RecordedEvent, 'stream' | 'type'>): boolean {
    return matchesFilter(event, this.projection.filter);
  }

  private ownCollection(name: string): string {
    if (!(name in this.projection.collections)) {
      throw new Error(`projection ${this.projection.name} does not own collection ${name}`);
    }
    return name;
  }

  private async apply(event: RecordedEvent): Promise<void> {
    await yieldToRequests();
    await this.projection.handle(event, this.context);
    this.position = event.position;
    this.sinceCheckpoint += 1;
    if (this.sinceCheckpoint >= CHECKPOINT_EVERY) await this.saveCheckpoint();
    this.waiters.reached(this.position);
  }

  private async caughtUp(position: number): Promise<void> {
    if (position > this.position) this.position = position;
    if (this.state === 'catching_up') this.state = 'live';
    this.waiters.reached(this.position);
    await this.saveCheckpoint().catch((error: Error) =>
      this.logger.warn?.(`checkpoint of ${this.projection.name} not saved: ${error.message}`),
    );
  }

  private async saveCheckpoint(): Promise<void> {
    if (this.position === this.checkpointed) return;
    const position = this.position;
    await this.readStore
      .collection<CheckpointDocument>(CHECKPOINT_COLLECTION)
      .upsert({ _id: this.projection.name, position, updated_at: new Date().toISOString() });
    this.checkpointed = position;
    this.sinceCheckpoint = 0;
  }
}
