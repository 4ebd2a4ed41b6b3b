import type { ProjectionStatus } from '@pss/projections';
import { CatchUpProgress } from './catch-up-progress';

describe('CatchUpProgress', () => {
  const at = (checkpoints: number[], head: number): ProjectionStatus[] =>
    checkpoints.map((checkpoint, index) => ({ name: `p${index}`, state: 'catching_up', checkpoint, head, lag: head - checkpoint }));

  const setUp = (first: ProjectionStatus[]) => {
    let status = first;
    let now = 1_000;
    const lines: Array<Record<string, unknown>> = [];
    const logger = { log: (line: Record<string, unknown>) => lines.push(line), error() {}, warn() {} };
    const runner = { status: async () => status };
    return {
      lines,
      start: () => CatchUpProgress.start(runner, logger, () => now),
      advance: (ms: number, next: ProjectionStatus[]) => {
        now += ms;
        status = next;
      },
    };
  };

  it('says where it starts, then done of total with the rate, from the slowest projection', async () => {
    const run = setUp(at([100, 400], 1100));
    const progress = await run.start();
    run.advance(2_000, at([600, 1100], 1150)); // the head moved on: progress is against the head at the start
    await progress.report();
    const summary = progress.finish(true);
    expect(run.lines.map((line) => line.message)).toEqual([
      'read models catching up: 2 projections, positions 100 to 1100',
      'read models catching up: 500/1000 (50%), 250 per second',
      'read models caught up: 2 projections at position 1100 in 2 s',
    ]);
    expect(run.lines[1]).toMatchObject({ done: 500, total: 1000, percent: 50, rate_per_second: 250 });
    expect(summary).toEqual({ projections: 2, head: 1100, caughtUp: true, seconds: 2 });
  });

  it('has nothing to report when the read models are already at the head', async () => {
    const run = setUp(at([50, 50], 50));
    const summary = (await run.start()).finish(true);
    expect(run.lines.map((line) => line.message)).toEqual(['read models caught up: 2 projections at position 50 in 0 s']);
    expect(summary.caughtUp).toBe(true);
  });

  it('leaves the warning to the caller when time ran out', async () => {
    const run = setUp(at([0], 10));
    const progress = await run.start();
    run.advance(120_000, at([5], 10));
    expect(progress.finish(false)).toEqual({ projections: 1, head: 10, caughtUp: false, seconds: 120 });
    expect(run.lines.map((line) => line.message)).toEqual(['read models catching up: 1 projections, positions 0 to 10']);
  });
});
