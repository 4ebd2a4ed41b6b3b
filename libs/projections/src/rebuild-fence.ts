import type { LoggerService } from '@nestjs/common';
import { DomainError } from '@pss/kernel';
import type { ReadStore } from '@pss/read-store';
import type { LiveProjection } from './live-projection';
import { RebuildLease } from './rebuild-lease';
import { ReplicaPresence } from './replica-presence';

export interface FenceTimings {
  /** How often a replica renews its presence and looks for fences (and a rebuild for acknowledgements). */
  checkEveryMs: number;
  /** A presence not renewed for this long is a replica gone: a rebuild no longer waits for it. */
  presenceMs: number;
  /** How long a rebuild waits for every replica to pause before it gives up, its read model unchanged. */
  pauseWithinMs: number;
}

// A second between looks: a rebuild's swap waits about that long, and it costs each replica two small read-store
// calls a second, nothing per event. 60 s to pause covers a replica stuck in an outage; one that never answers
// (an older version in a rolling upgrade) fails the rebuild rather than losing its writes.
export const FENCE_TIMINGS: FenceTimings = { checkEveryMs: 1_000, presenceMs: 10_000, pauseWithinMs: 60_000 };

/**
 * Waits until every other replica running the projection (present, not expired) has paused it under the fence
 * raised by `lease`. Throws a conflict when one has not within `pauseWithinMs`.
 */
export async function pauseOtherReplicas(lease: RebuildLease, readStore: ReadStore, projection: string, replica: string, timings: FenceTimings, now: () => number): Promise<void> {
  await lease.raiseFence();
  const deadline = now() + timings.pauseWithinMs;
  for (;;) {
    const paused = new Set(await lease.pausedReplicas());
    const waiting = (await ReplicaPresence.running(readStore, projection, now())).filter((other) => other !== replica && !paused.has(other));
    if (waiting.length === 0) return;
    if (now() >= deadline) {
      throw new DomainError('conflict', `projection ${projection} was not swapped: replica ${waiting.join(', ')} did not pause it within ${timings.pauseWithinMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, timings.checkEveryMs / 4));
  }
}

/**
 * A replica's side of the fence: on a timer, renews its presence, pauses each projection another replica is
 * swapping and acknowledges it, and restarts it from the shared checkpoint (the rebuild's) once the fence is
 * lifted. Only a timer: the live projections pay nothing per event.
 */
export class FenceWatcher {
  private readonly presence: ReplicaPresence;
  private readonly fenced = new Set<string>();
  private timer?: NodeJS.Timeout;
  private checking?: Promise<void>;

  constructor(
    private readonly readStore: ReadStore,
    private readonly replica: string,
    private readonly projections: LiveProjection[],
    private readonly timings: FenceTimings,
    private readonly logger: LoggerService,
  ) {
    this.presence = new ReplicaPresence(readStore, replica, timings.presenceMs);
  }

  /** Whether `projection` waits for a fence to be lifted (and must not be started meanwhile). */
  holds(projection: string): boolean {
    return this.fenced.has(projection);
  }

  /** Looks once (a replica starting during a swap must not write before it has paused), then on the timer. */
  async start(): Promise<void> {
    await this.check();
  }

  watch(): void {
    this.timer = setInterval(() => void this.check(), this.timings.checkEveryMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.checking;
    await this.presence.leave().catch(() => undefined);
  }

  private check(): Promise<void> {
    // A look still under way (a pause waiting for its event) is not started twice.
    this.checking ??= this.look()
      .catch((error: Error) => this.logger.warn?.(`rebuild fences not checked: ${error.message}`))
      .finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async look(): Promise<void> {
    await this.presence.renew(this.projections.map((live) => live.projection.name));
    const fences = await RebuildLease.fences(this.readStore, Date.now());
    for (const live of this.projections) {
      const name = live.projection.name;
      const rebuilder = fences.get(name);
      if (rebuilder !== undefined && rebuilder !== this.replica) {
        // Paused before acknowledged: whatever it applied to the old collection is in the rebuild's tail.
        if (!this.fenced.has(name)) await live.pause();
        this.fenced.add(name);
        await RebuildLease.acknowledge(this.readStore, name, this.replica);
      } else if (this.fenced.has(name)) {
        await live.start();
        this.fenced.delete(name);
      }
    }
  }
}
