import { Inject, Logger, Optional, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { Lease, replicaId } from '@pss/projections';
import { CLOCK, type Clock } from '@pss/kernel';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { PLATFORM_OPTIONS, type PlatformOptions } from './tokens';

/** Where the replica that runs each job holds its lease (beside the read models, which every replica shares). */
export const JOB_LEASES = 'job_leases';
/** A job's replica that stops renewing (it died) hands the job over after this long. */
export const JOB_LEASE_MS = 30_000;
const JOB_LEASE_RENEW_MS = JOB_LEASE_MS / 3;

export interface PeriodicJobOptions {
  /** Also run once at start, e.g. to resume what a stopped process left. */
  runAtStart?: boolean;
  /**
   * Run on every replica: the job works on what this process holds (its own buffers). Otherwise one replica runs
   * it at a time, the holder of its lease in the read store; the others take over when it stops or dies.
   */
  everyReplica?: boolean;
}

/**
 * A job that runs every `intervalMs` in the background of a service (when the process runs background work at
 * all). One replica runs it unless it is `everyReplica`; each run must still be idempotent, since a replica that
 * stalls past its lease overlaps its successor once. One run at a time per process, and shutdown waits for the
 * run under way. Tests call `run()` directly with an injected clock. What every job needs from the platform is
 * injected by property (Nest's way for a base class), so a job's constructor lists only what is its own.
 */
export abstract class PeriodicJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  protected readonly logger: Logger;
  private timer?: NodeJS.Timeout;
  private renewal?: NodeJS.Timeout;
  private running?: Promise<number>;
  private lease?: Lease;
  /** The replicas' shared store, where the job's lease is (absent in a test module without one: every replica runs). */
  @Optional() @Inject(READ_STORE) private readonly leaseStore?: ReadStore;
  @Inject(PLATFORM_OPTIONS) private readonly options!: PlatformOptions;
  /** What a run takes as now. */
  @Inject(CLOCK) protected readonly clock!: Clock;

  protected constructor(
    private readonly name: string,
    private readonly intervalMs: number,
    private readonly schedule: PeriodicJobOptions = {},
  ) {
    this.logger = new Logger(name);
  }

  onApplicationBootstrap(): void {
    if (!this.options.background) return;
    if (!this.schedule.everyReplica && this.leaseStore) {
      const lease = new Lease(this.leaseStore, JOB_LEASES, this.name, replicaId(), JOB_LEASE_MS);
      this.lease = lease;
      // Renewed on a timer of its own: a job whose interval is longer than the lease keeps it between runs.
      this.renewal = setInterval(() => void lease.take().catch(() => undefined), JOB_LEASE_RENEW_MS).unref();
    }
    const runLogged = () =>
      void this.runIfOurs().catch((error: Error) => this.logger.error({ message: 'run failed, trying again at the next one', error: error.message }));
    this.timer = setInterval(runLogged, this.intervalMs).unref();
    if (this.schedule.runAtStart) runLogged();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.renewal);
    await this.running?.catch(() => undefined);
    // Given back, so another replica takes the job at its next tick rather than after the lease runs out.
    await this.lease?.release().catch(() => undefined);
  }

  /** One run, or the one under way; answers how many items it handled. */
  run(): Promise<number> {
    this.running ??= this.once().finally(() => (this.running = undefined));
    return this.running;
  }

  protected abstract once(): Promise<number>;

  private async runIfOurs(): Promise<void> {
    if (this.lease && !(await this.lease.take())) return;
    await this.run();
  }
}
