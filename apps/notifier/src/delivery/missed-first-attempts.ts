import { Inject, Injectable } from '@nestjs/common';
import { JOB_LEASE_MS, PeriodicJob } from '@pss/platform';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { Deliveries } from './deliveries';
import { PENDING_DELIVERIES, type PendingDelivery } from './delivery.projection';
import { pendingPages } from './pending-pages';

const SWEEP_EVERY_MS = 5_000;
/**
 * How long a requested delivery is left to the process that requested it before another takes its immediate
 * attempt: that process starts it at once unless its queue is full, and the pending read model must have the
 * request (a projection lagging longer leaves it to the retry cycle).
 */
export const FIRST_ATTEMPT_GRACE_MS = 10_000;
/** How far back a replica that just took the job looks: the lease's handover and a sweep, with room to spare. */
const TAKEOVER_LOOKBACK_MS = 2 * JOB_LEASE_MS;

/**
 * The immediate attempt of a delivery whose requesting process died first (issue 33): the attempt waited in that
 * process's memory, or the event, delivered again to another replica, found its delivery requested and sent
 * nothing more. Without this, the next 5-minute retry cycle was the first attempt. Every few seconds, one replica
 * takes each delivery requested in the slice since its last sweep, but for the grace, that no attempt was claimed
 * for. Each is taken once: one the sweep could not start either (its endpoint parked, the queue full) waits for the
 * retry cycle, as a parked attempt always did. An attempt is claimed on its stream, so the requester still alive
 * and this sweep never both send it.
 */
@Injectable()
export class MissedFirstAttempts extends PeriodicJob {
  /** The end of the last slice swept by this replica. */
  private sweptUntil?: string;

  constructor(
    private readonly deliveries: Deliveries,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {
    super('MissedFirstAttempts', SWEEP_EVERY_MS);
  }

  /** One sweep; answers how many deliveries it took up (their attempts go on in the delivery queue). */
  protected async once(): Promise<number> {
    const now = this.clock.now().getTime();
    const until = new Date(now - FIRST_ATTEMPT_GRACE_MS).toISOString();
    const lookback = new Date(now - FIRST_ATTEMPT_GRACE_MS - TAKEOVER_LOOKBACK_MS).toISOString();
    const from = this.sweptUntil && this.sweptUntil > lookback ? this.sweptUntil : lookback;
    const pending = this.readStore.collection<PendingDelivery>(PENDING_DELIVERIES);
    let taken = 0;
    for await (const page of pendingPages(pending, { attempted: false, due_at: { $gt: from, $lte: until } })) {
      // Not awaited: a slow receiver must not hold the next sweep; the attempt's failures are its own to record.
      for (const missed of page) void this.deliveries.attempt(missed._id);
      taken += page.length;
    }
    this.sweptUntil = until;
    return taken;
  }
}
