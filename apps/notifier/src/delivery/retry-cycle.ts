import { Inject, Injectable } from '@nestjs/common';
import { PeriodicJob } from '@pss/platform';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { Deliveries } from './deliveries';
import type { DeliveryState } from './delivery.decider';
import { PENDING_DELIVERIES, type PendingDelivery } from './delivery.projection';
import { pendingPages } from './pending-pages';

/** Spec, Delivery: retries run in 5-minute cycles. */
const RETRY_CYCLE_MS = 5 * 60 * 1000;

/**
 * Every 5 minutes, and once at start (to resume what a stopped process left), takes every pending delivery whose
 * next attempt is due: retries, and requests or claims that no attempt settled. One replica runs it (its job
 * lease); an attempt is claimed on its delivery's stream, so a cycle and another process never make the same one.
 */
@Injectable()
export class RetryCycle extends PeriodicJob {
  constructor(
    private readonly deliveries: Deliveries,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {
    // Also at start (the platform's read models have caught up by then: its hooks run before this module's).
    super('RetryCycle', RETRY_CYCLE_MS, { runAtStart: true });
  }

  /** One cycle; answers how many due deliveries it took up. */
  protected async once(): Promise<number> {
    const now = this.clock.now().toISOString();
    const pending = this.readStore.collection<PendingDelivery>(PENDING_DELIVERIES);
    const attempts: Array<Promise<DeliveryState | undefined>> = [];
    // What was due when the cycle began.
    for await (const page of pendingPages(pending, { due_at: { $lte: now } })) attempts.push(...page.map((due) => this.deliveries.attempt(due._id)));
    await Promise.all(attempts);
    return attempts.length;
  }
}
