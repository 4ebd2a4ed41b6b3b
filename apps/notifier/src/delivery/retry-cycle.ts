import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { CLOCK, type Clock } from '@pss/kernel';
import { PLATFORM_OPTIONS, type PlatformOptions } from '@pss/platform';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { Deliveries } from './deliveries';
import type { DeliveryState } from './delivery.decider';
import { PENDING_DELIVERIES, type PendingDelivery } from './delivery.projection';

/** Spec, Delivery: retries run in 5-minute cycles. */
const RETRY_CYCLE_MS = 5 * 60 * 1000;
const PAGE_SIZE = 500;

/**
 * Every 5 minutes, and once at start (to resume what a stopped process left), takes every pending delivery whose
 * next attempt is due: retries, and requests or claims that no attempt settled. Runs on every replica: an attempt
 * is claimed on its delivery's stream, so two cycles never make the same one.
 */
@Injectable()
export class RetryCycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('RetryCycle');
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    private readonly deliveries: Deliveries,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PLATFORM_OPTIONS) private readonly options: PlatformOptions,
  ) {}

  /** The platform's read models have caught up by now: its hooks run before this module's. */
  onApplicationBootstrap(): void {
    if (!this.options.background) return;
    const runLogged = () => void this.run().catch((error: Error) => this.logger.error({ message: 'retry cycle failed, trying again at the next one', error: error.message }));
    this.timer = setInterval(runLogged, RETRY_CYCLE_MS).unref();
    runLogged();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** One cycle (or the one under way); answers how many due deliveries it took up. */
  run(): Promise<number> {
    this.running ??= this.cycle().finally(() => (this.running = undefined));
    return this.running;
  }

  private async cycle(): Promise<number> {
    const now = this.clock.now().toISOString();
    const pending = this.readStore.collection<PendingDelivery>(PENDING_DELIVERIES);
    const attempts: Array<Promise<DeliveryState | undefined>> = [];
    // Keyset pages over what was due when the cycle began: an attempt moves its delivery's due time, never back.
    for (let after: PendingDelivery | undefined; ; ) {
      const beyond = after ? { $or: [{ due_at: { $gt: after.due_at } }, { due_at: after.due_at, _id: { $gt: after._id } }] } : {};
      const page = await pending.find({ due_at: { $lte: now }, ...beyond }, { sort: { due_at: 1, _id: 1 }, limit: PAGE_SIZE });
      attempts.push(...page.map((due) => this.deliveries.attempt(due._id)));
      if (page.length < PAGE_SIZE) break;
      after = page[page.length - 1];
    }
    await Promise.all(attempts);
    return attempts.length;
  }
}
