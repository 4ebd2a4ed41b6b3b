import type { ReportCadence, ReportLocale } from '@pss/contracts';
import { deterministicUuid, type Decider, type DomainEvent } from '@pss/kernel';

export interface ScheduledRun {
  storeId: string;
  orgId: string;
  cadence: ReportCadence;
  periodStart: string;
  periodEnd: string;
  locale: ReportLocale;
}

export type ScheduledRunEvent = DomainEvent<'ScheduledReportDelivered', ScheduledRun & { snapshotId: string; sha256: string; dueAt: string }>;

export type ScheduledRunCommand = { type: 'Deliver'; run: ScheduledRun; snapshotId: string; sha256: string; dueAt: string };

/**
 * One scheduled run of one store's report (stream `reportrun-<id>`, the id derived from store, cadence and
 * period): appended with "no stream", so however many replicas or restarts run it, report.ready goes out once.
 */
export const scheduledRunDecider: Decider<{ delivered: boolean }, ScheduledRunCommand, ScheduledRunEvent> = {
  initialState: () => ({ delivered: false }),
  decide: ({ run, snapshotId, sha256, dueAt }, state) =>
    state.delivered ? [] : [{ type: 'ScheduledReportDelivered', data: { ...run, snapshotId, sha256, dueAt } }],
  evolve: () => ({ delivered: true }),
};

export const scheduledRunId = (run: Pick<ScheduledRun, 'storeId' | 'cadence' | 'periodEnd'>): string =>
  deterministicUuid('scheduled-report', run.storeId, run.cadence, run.periodEnd);
export const scheduledRunStream = (runId: string): string => `reportrun-${runId}`;
/** The snapshot of a scheduled run has an id derived from the run, so two replicas make the same snapshot. */
export const scheduledSnapshotId = (runId: string): string => deterministicUuid('scheduled-snapshot', runId);
