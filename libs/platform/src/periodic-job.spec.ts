import { Injectable, Logger, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MemoryReadStore, READ_STORE, type ReadStore } from '@pss/read-store';
import { CLOCK } from '@pss/kernel';
import { eventually, ManualClock } from '@pss/testkit';
import { PeriodicJob } from './periodic-job';
import { PLATFORM_OPTIONS } from './tokens';

const INTERVAL_MS = 20;
const SEVERAL_TICKS_MS = 5 * INTERVAL_MS;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const NOW = new Date('2026-05-04T09:00:00.000Z');

/** Counts its runs and notes when each started; a test can hold a run under way (`hold`) or make the next one fail. */
@Injectable()
class CountingJob extends PeriodicJob {
  started = 0;
  finished = 0;
  failNext = false;
  readonly startedAt: Date[] = [];
  private held?: Promise<void>;
  private release?: () => void;

  constructor() {
    super('CountingJob', INTERVAL_MS);
  }

  hold(): () => void {
    this.held = new Promise((resolve) => (this.release = resolve));
    return () => {
      this.held = undefined;
      this.release?.();
    };
  }

  protected async once(): Promise<number> {
    this.started += 1;
    this.startedAt.push(this.clock.now());
    await this.held;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('store unreachable');
    }
    this.finished += 1;
    return 1;
  }
}

/** A replica of the service: with `shared`, the read store every replica of it shares, where job leases are. */
async function start(background: boolean, shared?: ReadStore): Promise<{ app: INestApplicationContext; job: CountingJob }> {
  const readStore = shared ? [{ provide: READ_STORE, useValue: shared }] : [];
  @Module({ providers: [{ provide: PLATFORM_OPTIONS, useValue: { background } }, { provide: CLOCK, useValue: new ManualClock(NOW) }, ...readStore, CountingJob] })
  class JobModule {}
  const app = await NestFactory.createApplicationContext(JobModule, { logger: false });
  return { app, job: app.get(CountingJob) };
}

describe('PeriodicJob', () => {
  let errors: jest.SpyInstance;
  beforeEach(() => (errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined)));
  afterEach(() => errors.mockRestore());

  it('runs every interval from the start of the app, and no more once it closed', async () => {
    const { app, job } = await start(true);
    await eventually(() => job.finished, (finished) => finished >= 2);
    await app.close();
    const runs = job.started;
    await pause(SEVERAL_TICKS_MS);
    expect(job.started).toBe(runs);
  });

  it('never runs twice at once: a tick or a call while a run is under way joins that run', async () => {
    const { app, job } = await start(false);
    const release = job.hold();
    const first = job.run();
    expect(job.run()).toBe(first);
    await pause(SEVERAL_TICKS_MS);
    expect(job.started).toBe(1);
    release();
    expect(await first).toBe(1);
    await app.close();
  });

  it('logs a failed run rather than throwing it, and runs again at the next interval', async () => {
    const { app, job } = await start(true);
    job.failNext = true;
    await eventually(() => job.finished, (finished) => finished >= 1);
    expect(errors).toHaveBeenCalledWith({ message: 'run failed, trying again at the next one', error: 'store unreachable' });
    await app.close();
  });

  it('lets shutdown wait for the run under way', async () => {
    const { app, job } = await start(true);
    const release = job.hold();
    await eventually(() => job.started, (started) => started >= 1);
    let closed = false;
    const closing = app.close().then(() => (closed = true));
    await pause(SEVERAL_TICKS_MS);
    expect(closed).toBe(false);
    release();
    await closing;
    expect(job.finished).toBe(1);
  });

  it('runs on one replica of those sharing a read store, and on another once that one stops (issue 33, D10)', async () => {
    const shared = new MemoryReadStore();
    const first = await start(true, shared);
    const second = await start(true, shared);
    await eventually(() => first.job.finished + second.job.finished, (runs) => runs >= 3);
    const [running, standing] = first.job.started > 0 ? [first, second] : [second, first];
    expect(standing.job.started).toBe(0);
    await running.app.close();
    await eventually(() => standing.job.finished, (finished) => finished >= 2);
    await standing.app.close();
  });

  it('runs nothing by itself in a process without background work (a CLI call)', async () => {
    const { app, job } = await start(false);
    await pause(SEVERAL_TICKS_MS);
    expect(job.started).toBe(0);
    await app.close();
  });

  it("takes now from the platform's clock, which tests replace", async () => {
    const { app, job } = await start(false);
    await job.run();
    expect(job.startedAt).toEqual([NOW]);
    await app.close();
  });
});
