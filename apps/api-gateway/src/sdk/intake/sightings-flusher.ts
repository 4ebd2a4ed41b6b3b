import { Inject, Injectable } from '@nestjs/common';
import { BUS, type Bus } from '@pss/bus';
import { COMMANDS, type SdkRecordSightingsCommand, type SdkRecordSightingsReply, type StoreSightings } from '@pss/contracts';
import { PeriodicJob } from '@pss/platform';
import { SightingBuffer, type PageVisit } from './sighting-buffer';

/** How long sightings are counted in memory before they are recorded (lost on a crash, at most this). */
export const FLUSH_INTERVAL_MS = 5_000;
/** Windows per command: a flush over many stores is several commands, each well under any message limit. */
export const WINDOWS_PER_COMMAND = 500;
/**
 * Windows kept while inventory cannot record them (one per store per flush). Beyond, the oldest are dropped with
 * an error in the log: the counts are activity statistics, and memory must stay bounded through an outage.
 */
export const MAX_PENDING_WINDOWS = 20_000;

/**
 * Counts each SDK batch and each known script's sighting at the edge, and hands the windows to inventory every
 * FLUSH_INTERVAL_MS (and at shutdown), which records one `SightingsFlushed` event per store. A window inventory
 * could not record is kept for the next flush.
 */
@Injectable()
export class SightingsFlusher extends PeriodicJob {
  private readonly buffer = new SightingBuffer();
  private pending: StoreSightings[] = [];

  constructor(@Inject(BUS) private readonly bus: Bus) {
    super('SightingsFlusher', FLUSH_INTERVAL_MS, { everyReplica: true });
  }

  /** One admitted batch: where it came from when it looks like a page view, its observations, and the known scripts sighted in it. */
  count(store: { _id: string; org_id: string }, visit: PageVisit | null, observations: number, sighted: string[], sessionId: string, at: number): void {
    this.buffer.recordBatch(store._id, store.org_id, observations, at, visit);
    for (const scriptId of sighted) this.buffer.recordScript(store._id, store.org_id, scriptId, sessionId, at);
  }

  override async beforeApplicationShutdown(): Promise<void> {
    await super.beforeApplicationShutdown();
    await this.run();
  }

  protected async once(): Promise<number> {
    const windows = [...this.pending, ...this.buffer.drain()];
    this.pending = [];
    let failure: Error | undefined;
    for (let start = 0; start < windows.length; start += WINDOWS_PER_COMMAND) {
      const chunk = windows.slice(start, start + WINDOWS_PER_COMMAND);
      try {
        const command: SdkRecordSightingsCommand = { windows: chunk };
        const reply = await this.bus.request<SdkRecordSightingsReply>(COMMANDS.sdkRecordSightings, command);
        const failed = new Set(reply?.failed_store_ids ?? chunk.map((window) => window.storeId));
        this.keep(chunk.filter((window) => failed.has(window.storeId)));
      } catch (error) {
        this.keep(chunk);
        failure = error as Error;
      }
    }
    if (failure) this.logger.error({ message: 'sightings not recorded, retrying at the next flush', pending: this.pending.length, error: failure.message });
    return windows.length;
  }

  private keep(windows: StoreSightings[]): void {
    this.pending.push(...windows);
    const excess = this.pending.length - MAX_PENDING_WINDOWS;
    if (excess > 0) {
      this.pending.splice(0, excess);
      this.logger.error({ message: 'sightings dropped: inventory has not recorded them for too long', windows: excess });
    }
  }
}
