import { Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { PlatformOptions } from './tokens';

/**
 * A job that runs every `intervalMs` in the background of a service (when the process runs background work at
 * all). Jobs run on every replica, so each must be idempotent; one run at a time per process, and shutdown waits
 * for the run under way. Tests call `run()` directly with an injected clock.
 */
export abstract class PeriodicJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  protected readonly logger: Logger;
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  protected constructor(
    name: string,
    private readonly intervalMs: number,
    private readonly options: PlatformOptions,
    /** Also run once at start, e.g. to resume what a stopped process left. */
    private readonly runAtStart = false,
  ) {
    this.logger = new Logger(name);
  }

  onApplicationBootstrap(): void {
    if (!this.options.background) return;
    const runLogged = () =>
      void this.run().catch((error: Error) => this.logger.error({ message: 'run failed, trying again at the next one', error: error.message }));
    this.timer = setInterval(runLogged, this.intervalMs).unref();
    if (this.runAtStart) runLogged();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** One run, or the one under way; answers how many items it handled. */
  run(): Promise<number> {
    this.running ??= this.once().finally(() => (this.running = undefined));
    return this.running;
  }

  protected abstract once(): Promise<number>;
}
