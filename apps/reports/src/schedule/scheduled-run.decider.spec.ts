import { deciderSpec } from '@pss/testkit';
import { scheduledRunDecider, scheduledRunId, type ScheduledRun, type ScheduledRunEvent } from './scheduled-run.decider';

const run: ScheduledRun = { storeId: 'store-1', orgId: 'org-1', cadence: 'weekly', periodStart: '2026-11-23T00:00:00.000Z', periodEnd: '2026-11-30T00:00:00.000Z', locale: 'en' };
const delivered: ScheduledRunEvent = { type: 'ScheduledReportDelivered', data: { ...run, snapshotId: 'snap-1', sha256: 'aa', dueAt: '2026-11-30T09:00:00.000Z' } };

describe('scheduled run', () => {
  const spec = deciderSpec(scheduledRunDecider);

  it('is delivered once', () => {
    spec.given([]).when({ type: 'Deliver', run, snapshotId: 'snap-1', sha256: 'aa', dueAt: '2026-11-30T09:00:00.000Z' }).then([delivered]);
    spec.given([delivered]).when({ type: 'Deliver', run, snapshotId: 'snap-1', sha256: 'aa', dueAt: '2026-11-30T09:00:00.000Z' }).thenNothingHappens();
  });

  it('has one stream per store, cadence and period', () => {
    expect(scheduledRunId(run)).toBe(scheduledRunId({ ...run }));
    expect(scheduledRunId(run)).not.toBe(scheduledRunId({ ...run, cadence: 'monthly' }));
    expect(scheduledRunId(run)).not.toBe(scheduledRunId({ ...run, storeId: 'store-2' }));
  });
});
