import type { LoggerService } from '@nestjs/common';
import type { ProjectionStatus } from '@pss/projections';

/** How often a long catch-up says how far it is. */
const REPORT_EVERY_MS = 5_000;

export interface CatchUpSummary {
  projections: number;
  /** The event store's head when the catch-up started. */
  head: number;
  caughtUp: boolean;
  seconds: number;
}

interface StatusSource {
  status(): Promise<ProjectionStatus[]>;
}

/**
 * Progress of the read models' start-up catch-up, in event-store positions (one per event on SQLite; byte
 * offsets on EventStoreDB, so there the rate is relative): the slowest projection against the head as it was
 * when the catch-up began, logged every few seconds while it lasts.
 */
export class CatchUpProgress {
  private timer?: NodeJS.Timeout;

  private constructor(
    private readonly runner: StatusSource,
    private readonly logger: LoggerService,
    private readonly from: number,
    private readonly head: number,
    private readonly projections: number,
    private readonly now: () => number,
    private readonly startedAt: number,
  ) {}

  static async start(runner: StatusSource, logger: LoggerService, now: () => number = Date.now): Promise<CatchUpProgress> {
    const status = await runner.status();
    const head = status[0]?.head ?? 0;
    const from = slowest(status, head);
    const progress = new CatchUpProgress(runner, logger, from, head, status.length, now, now());
    if (from < head) {
      logger.log({ message: `read models catching up: ${status.length} projections, positions ${from} to ${head}`, from, head });
      progress.timer = setInterval(() => void progress.report(), REPORT_EVERY_MS);
      progress.timer.unref();
    }
    return progress;
  }

  /** One progress line: done of total, percent, and the rate since the start. */
  async report(): Promise<void> {
    const done = Math.min(slowest(await this.runner.status(), this.head), this.head) - this.from;
    const total = this.head - this.from;
    const elapsed = Math.max(this.now() - this.startedAt, 1) / 1000;
    const rate = Math.round(done / elapsed);
    const percent = total > 0 ? Math.floor((done / total) * 100) : 100;
    this.logger.log({ message: `read models catching up: ${done}/${total} (${percent}%), ${rate} per second`, done, total, percent, rate_per_second: rate });
  }

  finish(caughtUp: boolean): CatchUpSummary {
    clearInterval(this.timer);
    const summary = { projections: this.projections, head: this.head, caughtUp, seconds: Math.round(this.now() - this.startedAt) / 1000 };
    if (caughtUp) this.logger.log({ message: `read models caught up: ${summary.projections} projections at position ${summary.head} in ${summary.seconds} s`, ...summary });
    return summary;
  }
}

/** The position every projection has reached; the head when there are none. */
const slowest = (status: ProjectionStatus[], head: number): number =>
  status.length ? Math.min(...status.map((projection) => projection.checkpoint)) : head;
