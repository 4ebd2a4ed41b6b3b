import { Inject, Injectable } from '@nestjs/common';
import { CATCH_UP_MS, dueRuns, REPORT_SCHEDULES, type RunReportScheduleReply } from '@pss/contracts';
import { AggregateRepository, PeriodicJob } from '@pss/platform';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { organizationReportsRefusal } from '@pss/report-files';
import { ReportGenerator } from '../snapshot/report-generator';
import type { ScheduleDocument } from './schedule.projection';
import { scheduledRunDecider, scheduledRunId, scheduledRunStream, scheduledSnapshotId, type ScheduledRun } from './scheduled-run.decider';

/** How often the job looks for due runs; a run is due at 09:00 UTC, so it goes out within this of it. */
export const SCHEDULED_REPORTS_INTERVAL_MS = 5 * 60 * 1000;
/** Longer than a cadence's interval: the window in which the CLI finds the run due at an instant. */
const CADENCE_MS = { weekly: 7 * 24 * 3600_000, monthly: 31 * 24 * 3600_000 } as const;
/** `generated_by` of scheduled snapshots. */
export const SCHEDULER_LABEL = 'scheduler';

/**
 * Makes the scheduled reports: for every active schedule, each run due in the last 35 days (and since the
 * schedule was set) that has not been delivered yet: the snapshot, then `ScheduledReportDelivered`, which
 * publishes reports.report.ready. Runs on every replica, at start too (catching up what a stopped service
 * missed): the run's stream and its snapshot id derive from store, cadence and period, so nothing is made twice.
 */
@Injectable()
export class ScheduledReportsJob extends PeriodicJob {
  constructor(
    private readonly generator: ReportGenerator,
    private readonly aggregates: AggregateRepository,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {
    super('ScheduledReportsJob', SCHEDULED_REPORTS_INTERVAL_MS, { runAtStart: true });
  }

  protected async once(): Promise<number> {
    return (await this.runAt(this.clock.now(), 'catch_up')).snapshots.length;
  }

  /**
   * `catch_up` (the job): every run due since the schedule was set, at most 35 days back. `instant` (the admin
   * CLI's `reports run-schedule --at`): the run of each schedule that was due at that instant, the latest at or
   * before it, even if the service was down then or the schedule newer. Runs already made are never made again.
   */
  async runAt(at: Date, window: 'catch_up' | 'instant'): Promise<RunReportScheduleReply> {
    const made: RunReportScheduleReply['snapshots'] = [];
    const schedules = await this.readStore.collection<ScheduleDocument>(REPORT_SCHEDULES).find({ active: true, _deleted: { $ne: true } });
    for (const schedule of schedules) {
      // A plan downgraded since the schedule was set: no more reports (as GET /reports/pci would refuse them).
      if (await organizationReportsRefusal(this.readStore, schedule.org_id)) continue;
      const since = window === 'catch_up' ? Math.max(at.getTime() - CATCH_UP_MS, Date.parse(schedule._since ?? at.toISOString())) : at.getTime() - CADENCE_MS[schedule.cadence];
      for (const due of dueRuns(schedule.cadence, new Date(since), at).slice(window === 'instant' ? -1 : 0)) {
        const run: ScheduledRun = { storeId: schedule._id, orgId: schedule.org_id, cadence: due.cadence, periodStart: due.periodStart, periodEnd: due.periodEnd, locale: schedule.locale };
        const snapshot = await this.deliver(run, due.dueAt);
        if (snapshot) made.push(snapshot);
      }
    }
    return { at: at.toISOString(), snapshots: made };
  }

  private async deliver(run: ScheduledRun, dueAt: string): Promise<RunReportScheduleReply['snapshots'][number] | undefined> {
    const runId = scheduledRunId(run);
    const stream = scheduledRunStream(runId);
    const { state } = await this.aggregates.load(stream, scheduledRunDecider);
    if (state.delivered) return undefined;
    const snapshot = await this.generator.generate({ ...run, kind: run.cadence, generatedBy: SCHEDULER_LABEL, snapshotId: scheduledSnapshotId(runId) });
    const { events } = await this.aggregates.decide(
      stream,
      scheduledRunDecider,
      { type: 'Deliver', run, snapshotId: snapshot._id, sha256: snapshot.sha256!, dueAt },
      { actor: SCHEDULER_LABEL, orgId: run.orgId },
    );
    if (!events.length) return undefined;
    const { _id: id, store_id, kind, period_start, period_end, sha256 } = snapshot;
    return { id, store_id, kind, period_start, period_end, sha256 };
  }
}
