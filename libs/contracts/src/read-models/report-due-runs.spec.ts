import { dueRuns, nextRun } from './report-due-runs';

describe('due runs', () => {
  it('weekly: Monday 09:00 UTC, covering the seven days before that Monday', () => {
    expect(dueRuns('weekly', new Date('2026-11-23T09:00:00Z'), new Date('2026-12-07T09:00:00Z'))).toEqual([
      { cadence: 'weekly', dueAt: '2026-11-30T09:00:00.000Z', periodStart: '2026-11-23T00:00:00.000Z', periodEnd: '2026-11-30T00:00:00.000Z' },
      { cadence: 'weekly', dueAt: '2026-12-07T09:00:00.000Z', periodStart: '2026-11-30T00:00:00.000Z', periodEnd: '2026-12-07T00:00:00.000Z' },
    ]);
  });

  it('is not due a millisecond before 09:00', () => {
    expect(dueRuns('weekly', new Date('2026-11-23T10:00:00Z'), new Date('2026-11-30T08:59:59.999Z'))).toEqual([]);
  });

  it('monthly: the 1st at 09:00 UTC, covering the previous calendar month', () => {
    expect(dueRuns('monthly', new Date('2026-11-15T00:00:00Z'), new Date('2027-03-01T09:00:00Z')).map((run) => [run.dueAt, run.periodStart, run.periodEnd])).toEqual([
      ['2026-12-01T09:00:00.000Z', '2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z'],
      ['2027-01-01T09:00:00.000Z', '2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
      ['2027-02-01T09:00:00.000Z', '2027-01-01T00:00:00.000Z', '2027-02-01T00:00:00.000Z'],
      ['2027-03-01T09:00:00.000Z', '2027-02-01T00:00:00.000Z', '2027-03-01T00:00:00.000Z'],
    ]);
  });

  it('the next run: the coming Monday or 1st at 09:00 UTC, the following one once that hour has passed', () => {
    expect(nextRun('weekly', new Date('2026-11-23T08:59:59Z')).dueAt).toBe('2026-11-23T09:00:00.000Z');
    expect(nextRun('weekly', new Date('2026-11-23T09:00:00Z')).dueAt).toBe('2026-11-30T09:00:00.000Z');
    expect(nextRun('monthly', new Date('2027-01-31T23:00:00Z')).dueAt).toBe('2027-02-01T09:00:00.000Z');
    expect(nextRun('monthly', new Date('2027-02-01T09:00:00Z')).dueAt).toBe('2027-03-01T09:00:00.000Z');
  });
});
