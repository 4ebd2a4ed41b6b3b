import { rename } from 'node:fs/promises';
import type { LoggerService } from '@nestjs/common';
import type { EventStore } from '@pss/event-store';
import type { Document, ReadStore } from '@pss/read-store';
import { CHECKPOINT_COLLECTION, type CheckpointDocument } from '../projection';
import type { ProjectionRunner } from '../projection-runner';
import { projectionFingerprint } from './fingerprint';
import { readSnapshot, removeUnfinishedWrites, SnapshotRejected, writeSnapshot, type ProjectionImage, type Snapshot, type SnapshotHead } from './snapshot-file';

/** The read store of embedded mode, which holds its documents in this process and can hand them out and back. */
export interface SnapshottableReadStore extends ReadStore {
  documents(collection: string): readonly Document[];
  restore(collection: string, docs: readonly Document[]): void;
}

export interface SnapshotOptions {
  /** How often to look whether the read models moved far enough to write a new snapshot. */
  intervalMs: number;
  /** Events the read models must have moved since the last snapshot before a periodic one is written. */
  minEvents: number;
}

export const DEFAULT_SNAPSHOT_OPTIONS: SnapshotOptions = { intervalMs: 5 * 60_000, minEvents: 10_000 };

export interface RestoreSummary {
  /** Projections loaded from the snapshot, each to catch up from its own position. */
  restored: string[];
  /** Projections the snapshot did not hold (or held for another version): they replay every event. */
  replayed: string[];
  /** The snapshot's head position; 0 when nothing was restored. */
  position: number;
  seconds: number;
}

/**
 * Snapshots of the embedded read models, so that a start-up loads them and catches up from their positions
 * instead of replaying every event. Written atomically (see `writeSnapshot`) every few minutes when the read
 * models moved enough, after a long start-up catch-up, and at shutdown. A snapshot is never trusted blindly: one
 * that is corrupt, truncated or of another format, or that does not belong to this event store (its head is
 * beyond the store's head, or another event stands at its head position), is discarded as a whole; the read
 * model of a projection whose code changed since (another fingerprint) is left out and replayed from events.
 */
export class ReadModelSnapshots {
  private timer?: NodeJS.Timeout;
  private writing?: Promise<void>;
  /** The slowest position the last snapshot held: a new one is written when the read models moved past it. */
  private snapshotPosition = 0;

  constructor(
    private readonly file: string,
    private readonly readStore: SnapshottableReadStore,
    private readonly runner: ProjectionRunner,
    private readonly eventStore: EventStore,
    private readonly logger: LoggerService,
    private readonly options: SnapshotOptions = DEFAULT_SNAPSHOT_OPTIONS,
  ) {}

  /**
   * Loads the snapshot into the read store for the registered projections, before the runner starts: each then
   * catches up from the position it had. Anything it cannot trust is discarded and replayed from events.
   */
  async restore(): Promise<RestoreSummary> {
    const started = performance.now();
    const names = this.runner.positions().map(({ projection }) => projection.name);
    const nothing = (): RestoreSummary => ({ restored: [], replayed: names, position: 0, seconds: (performance.now() - started) / 1000 });
    await removeUnfinishedWrites(this.file);
    let snapshot: Snapshot | null;
    try {
      snapshot = await readSnapshot(this.file);
      if (snapshot) await this.checkBelongsToEventStore(snapshot);
    } catch (error) {
      await this.discard(error instanceof SnapshotRejected ? error.message : `unreadable: ${(error as Error).message}`);
      return nothing();
    }
    if (!snapshot) {
      this.logger.log(`no read-model snapshot in ${this.file}: every event is replayed`);
      return nothing();
    }
    const images = new Map(snapshot.projections.map((image) => [image.name, image]));
    const restored: string[] = [];
    const replayed: string[] = [];
    for (const { projection } of this.runner.positions()) {
      const image = images.get(projection.name);
      if (!image || image.fingerprint !== projectionFingerprint(projection)) {
        if (image) this.logger.log(`read-model snapshot: ${projection.name} changed since the snapshot, replayed from events`);
        replayed.push(projection.name);
        continue;
      }
      for (const collection of image.collections) this.readStore.restore(collection.name, collection.docs);
      await this.readStore
        .collection<CheckpointDocument>(CHECKPOINT_COLLECTION)
        .upsert({ _id: projection.name, position: image.position, updated_at: snapshot.createdAt });
      restored.push(projection.name);
    }
    this.snapshotPosition = slowest(snapshot.projections);
    const summary = { restored, replayed, position: snapshot.head.position, seconds: (performance.now() - started) / 1000 };
    this.logger.log({
      message: `read models loaded from the snapshot of ${snapshot.createdAt} (position ${summary.position}) in ${summary.seconds.toFixed(2)} s: ${restored.length} projections restored, ${replayed.length} replayed from events`,
      ...summary,
    });
    return summary;
  }

  /** Looks every `intervalMs` whether the read models moved `minEvents` since the last snapshot, and writes one. */
  startPeriodic(): void {
    this.timer = setInterval(() => void this.writeIfMovedBy(this.options.minEvents, 'periodic'), this.options.intervalMs);
    this.timer.unref();
  }

  /** After the start-up catch-up: a long one is not repeated at the next start. */
  afterCatchUp(): void {
    void this.writeIfMovedBy(this.options.minEvents, 'after the start-up catch-up');
  }

  /** At shutdown, once the runner stopped: whatever moved since the last snapshot is kept. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.writing;
    await this.writeIfMovedBy(1, 'shutdown');
  }

  async writeIfMovedBy(events: number, reason: string): Promise<void> {
    if (this.writing) return this.writing;
    const positions = this.runner.positions();
    if (positions.length === 0 || slowest(positions) - this.snapshotPosition < events) return;
    this.writing = this.write(reason)
      .catch((error: Error) => this.logger.warn?.(`read-model snapshot not written (${reason}): ${error.message}`))
      .finally(() => (this.writing = undefined));
    return this.writing;
  }

  /**
   * Takes the images of every read model in one synchronous step (stored documents are never changed in place, so
   * they stay as of that step while the service goes on), then writes them chunk by chunk, yielding in between.
   */
  private async write(reason: string): Promise<void> {
    const started = performance.now();
    const projections: ProjectionImage[] = this.runner.positions().map(({ projection, position }) => ({
      name: projection.name,
      fingerprint: projectionFingerprint(projection),
      position,
      collections: Object.keys(projection.collections).map((name) => ({ name, docs: this.readStore.documents(name) })),
    }));
    // Read after the images: the head is at or beyond every projection's position.
    const head = await this.headNow();
    const bytes = await writeSnapshot(this.file, { createdAt: new Date().toISOString(), head, projections }, nextTurn);
    this.snapshotPosition = slowest(projections);
    const seconds = (performance.now() - started) / 1000;
    this.logger.log({
      message: `read-model snapshot written (${reason}): ${projections.length} projections at position ${head.position}, ${(bytes / 2 ** 20).toFixed(1)} MiB in ${seconds.toFixed(2)} s`,
      position: head.position,
      bytes,
      seconds,
    });
  }

  private async headNow(): Promise<SnapshotHead> {
    const position = await this.eventStore.headPosition();
    return { position, eventId: position > 0 ? ((await this.eventAt(position))?.id ?? null) : null };
  }

  private async eventAt(position: number) {
    const [event] = await this.eventStore.readAll({ fromPosition: position - 1, maxCount: 1 });
    return event?.position === position ? event : undefined;
  }

  /** A snapshot of other data (another or a restored event store) would show events that never happened here. */
  private async checkBelongsToEventStore(snapshot: Snapshot): Promise<void> {
    const head = await this.eventStore.headPosition();
    if (snapshot.head.position > head) {
      throw new SnapshotRejected(`taken at position ${snapshot.head.position}, beyond the event store's head ${head}`);
    }
    if (snapshot.head.position > 0 && (await this.eventAt(snapshot.head.position))?.id !== snapshot.head.eventId) {
      throw new SnapshotRejected(`the event store holds another event at position ${snapshot.head.position}`);
    }
    const ahead = snapshot.projections.find((image) => image.position > snapshot.head.position);
    if (ahead) throw new SnapshotRejected(`${ahead.name} is at position ${ahead.position}, beyond the snapshot's head`);
  }

  private async discard(reason: string): Promise<void> {
    this.logger.warn?.(`read-model snapshot discarded (${reason}): every event is replayed`);
    await rename(this.file, `${this.file}.discarded`).catch(() => undefined);
  }
}

const slowest = (projections: Array<{ position: number }>): number =>
  projections.length ? Math.min(...projections.map((image) => image.position)) : 0;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
