import type { LoggerService } from '@nestjs/common';
import type { EventStore, RecordedEvent } from '@pss/event-store';
import type { ReadStore } from '@pss/read-store';
import { LiveProjection } from './live-projection';
import type { Projection } from './projection';
import { rebuildProjection, shadowName, type RebuildProgress, type RebuildResult } from './rebuild';
import { RebuildLease, replicaId } from './rebuild-lease';
import { FENCE_TIMINGS, FenceWatcher, type FenceTimings } from './rebuild-fence';

export interface ProjectionStatus {
  name: string;
  state: string;
  checkpoint: number;
  head: number;
  lag: number;
}

/** Runs every projection of this process and answers "are the read models at this write yet?". */
export class ProjectionRunner {
  private readonly live = new Map<string, LiveProjection>();
  private fence?: FenceWatcher;

  constructor(
    private readonly eventStore: EventStore,
    private readonly readStore: ReadStore,
    private readonly logger: LoggerService,
    /** Names this process to the other replicas sharing the read store (rebuild leases). */
    private readonly replica: string = replicaId(),
    private readonly fenceTimings: FenceTimings = FENCE_TIMINGS,
  ) {}

  register(projection: Projection): void {
    if (this.live.has(projection.name)) throw new Error(`projection ${projection.name} registered twice`);
    this.live.set(projection.name, new LiveProjection(projection, this.eventStore, this.readStore, this.logger));
  }

  names(): string[] {
    return [...this.live.keys()];
  }

  /** Every projection with the position its read model has reached (0 before start): what a snapshot records. */
  positions(): Array<{ projection: Projection; position: number }> {
    return [...this.live.values()].map((live) => ({ projection: live.projection, position: live.position }));
  }

  async start(): Promise<void> {
    const projections = [...this.live.values()];
    for (const projection of projections) await this.dropAbandonedShadows(projection.projection);
    this.fence = new FenceWatcher(this.readStore, this.replica, projections, this.fenceTimings, this.logger);
    await this.fence.start();
    for (const projection of projections) {
      // One another replica is swapping starts when the fence is lifted, from the rebuild's checkpoint.
      if (!this.fence.holds(projection.projection.name)) await projection.start();
    }
    this.fence.watch();
  }

  /**
   * Shadows left by a rebuild that died with its replica; those of a rebuild another replica is running (its
   * lease is renewed) are left alone.
   */
  private async dropAbandonedShadows(projection: Projection): Promise<void> {
    if (!(await RebuildLease.abandoned(this.readStore, projection.name, Date.now))) return;
    for (const name of Object.keys(projection.collections)) await this.readStore.drop(shadowName(name));
    await RebuildLease.clearAbandoned(this.readStore, projection.name, Date.now);
  }

  async stop(): Promise<void> {
    await this.fence?.stop();
    await Promise.all([...this.live.values()].map((projection) => projection.stop()));
  }

  /**
   * Resolves once every projection that reads any of `events` has handled them (all projections when no events
   * are named), or after `timeoutMs`: a write is never failed because a read model is slow.
   */
  async waitFor(position: number, events?: Pick<RecordedEvent, 'stream' | 'type'>[], timeoutMs = 5000): Promise<boolean> {
    const concerned = [...this.live.values()].filter(
      (projection) => !events || events.some((event) => projection.isInterestedIn(event)),
    );
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      return await Promise.race([Promise.all(concerned.map((p) => p.waiters.wait(position))).then(() => true), timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Resolves once every projection has caught up with the store's head as it is now. */
  async catchUp(timeoutMs = 30_000): Promise<boolean> {
    return this.waitFor(await this.eventStore.headPosition(), undefined, timeoutMs);
  }

  async status(): Promise<ProjectionStatus[]> {
    const head = await this.eventStore.headPosition();
    return [...this.live.values()].map((projection) => ({
      name: projection.projection.name,
      state: projection.state,
      checkpoint: projection.position,
      head,
      lag: Math.max(0, head - projection.position),
    }));
  }

  async rebuild(name: string, onProgress: (progress: RebuildProgress) => void, signal?: AbortSignal): Promise<RebuildResult> {
    const projection = this.live.get(name);
    if (!projection) throw new Error(`unknown projection ${name}; known: ${this.names().join(', ')}`);
    if (projection.state === 'rebuilding') throw new Error(`projection ${name} is already being rebuilt`);
    return rebuildProjection(projection, this.eventStore, this.readStore, onProgress, Date.now, signal, this.replica, this.fenceTimings);
  }
}
