import type { LoggerService } from '@nestjs/common';
import type { ReadStore } from '@pss/read-store';
import type { IntegrationPublisher } from './integration-publisher';
import { Lease } from './lease';

/** Where the replica that publishes each source holds its lease. */
export const PUBLISHER_LEASES = 'publisher_leases';
/** A publishing replica that stops renewing (it died, or cannot reach the read store) hands over after this long. */
export const PUBLISHER_LEASE_MS = 15_000;
const RENEW_EVERY_MS = PUBLISHER_LEASE_MS / 3;

/**
 * One replica publishes each source: the holder of its lease in the shared read store. Every replica runs one of
 * these per source; the others stand by and take over from the shared checkpoint when the holder stops (it gives
 * the lease back) or dies (its lease runs out). Without it, every replica published every fact and raced one
 * checkpoint. A holder that stalls past its lease overlaps its successor for a moment: consumers deduplicate by
 * fact id, as they must for any redelivery.
 */
export class LeasedPublisher {
  private publisher?: IntegrationPublisher;
  private timer?: NodeJS.Timeout;
  private changing = Promise.resolve();
  private readonly lease: Lease;

  constructor(
    readonly name: string,
    private readonly newPublisher: () => IntegrationPublisher,
    readStore: ReadStore,
    replica: string,
    private readonly logger: LoggerService,
  ) {
    this.lease = new Lease(readStore, PUBLISHER_LEASES, name, replica, PUBLISHER_LEASE_MS);
  }

  /** This replica publishes the source now. */
  get active(): boolean {
    return this.publisher !== undefined;
  }

  get publishedPosition(): number {
    return this.publisher?.publishedPosition ?? 0;
  }

  get stalled(): boolean {
    return this.publisher?.stalled ?? false;
  }

  /** Publishes at once when the lease is free; stands by otherwise, looking again every few seconds. */
  async start(): Promise<void> {
    await this.follow();
    this.timer = setInterval(() => void this.follow(), RENEW_EVERY_MS).unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.changing;
    await this.publisher?.stop();
    this.publisher = undefined;
    await this.lease.release().catch(() => undefined);
  }

  /** Takes or renews the lease, and starts or stops publishing to match; one change at a time. */
  private follow(): Promise<void> {
    this.changing = this.changing.then(async () => {
      let held: boolean;
      try {
        held = await this.lease.take();
      } catch (error) {
        // The read store is away: keep doing what we did; the lease's term decides who publishes after it.
        this.logger.warn?.(`publisher ${this.name}: lease not renewed: ${(error as Error).message}`);
        return;
      }
      if (held && !this.publisher) {
        const publisher = this.newPublisher();
        await publisher.start();
        this.publisher = publisher;
        this.logger.log?.(`publisher ${this.name}: publishing on this replica`);
      } else if (!held && this.publisher) {
        const publisher = this.publisher;
        this.publisher = undefined;
        await publisher.stop();
        this.logger.warn?.(`publisher ${this.name}: another replica took over`);
      }
    });
    return this.changing;
  }
}
