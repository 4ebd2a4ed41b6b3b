import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { BUS, type Bus } from '@pss/bus';
import {
  IntegrationPublisher,
  LeasedPublisher,
  PROJECTION_METADATA,
  ProjectionRunner,
  ReadModelSnapshots,
  replicaId,
  type IntegrationEventSource,
  type Projection,
  type RestoreSummary,
} from '@pss/projections';
import { MemoryReadStore } from '@pss/read-store';
import { discoverProviders, INTEGRATION_SOURCE_METADATA } from './discovery';
import { CatchUpProgress, type CatchUpSummary } from './catch-up-progress';
import { ADAPTERS, PLATFORM_OPTIONS, type PlatformOptions } from './tokens';
import type { Adapters } from './adapters';

/** Longest the start-up waits for the read models before it opens anyway (and says so). */
const CATCH_UP_TIMEOUT_MS = 120_000;

/**
 * Starts what runs in the background of a service, in order: read models catch up first (so the first request
 * is answered from complete data), then the integration publishers. Stops them in reverse order on shutdown, so
 * SIGTERM loses nothing: every acknowledged event is in the event store and checkpoints are flushed.
 */
@Injectable()
export class PlatformLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Platform');
  /** One per source on every replica; the holder of a source's lease publishes it (LeasedPublisher). */
  private publishers: LeasedPublisher[] = [];
  private snapshots?: ReadModelSnapshots;
  private started = false;
  /** How the start-up catch-up went: the start-up summary reports it. */
  catchUp?: CatchUpSummary;
  /** Embedded mode: what the start-up took from the read-model snapshot. */
  snapshotRestored?: RestoreSummary;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly runner: ProjectionRunner,
    @Inject(ADAPTERS) private readonly adapters: Adapters,
    @Inject(BUS) private readonly bus: Bus,
    @Inject(PLATFORM_OPTIONS) private readonly options: PlatformOptions,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    for (const projection of discoverProviders<Projection>(this.discovery, PROJECTION_METADATA)) {
      this.runner.register(projection);
    }
    this.snapshots = this.readModelSnapshots();
    this.snapshotRestored = await this.snapshots?.restore();
    await this.runner.start();
    const progress = await CatchUpProgress.start(this.runner, this.logger);
    this.catchUp = progress.finish(await this.runner.catchUp(CATCH_UP_TIMEOUT_MS));
    if (!this.catchUp.caughtUp) {
      this.logger.warn({ message: `read models not caught up after ${CATCH_UP_TIMEOUT_MS / 1000} s; opening anyway, they keep catching up`, ...this.catchUp });
    }
    if (this.options.background) {
      const { eventStore, checkpoints, readStore } = this.adapters;
      const replica = replicaId();
      this.publishers = discoverProviders<IntegrationEventSource>(this.discovery, INTEGRATION_SOURCE_METADATA).map(
        (source) => new LeasedPublisher(source.name, () => new IntegrationPublisher(source, eventStore, checkpoints, this.bus, this.logger), readStore, replica, this.logger),
      );
      for (const publisher of this.publishers) await publisher.start();
      this.snapshots?.afterCatchUp();
      this.snapshots?.startPeriodic();
    }
    this.started = true;
  }

  /** Started, and no publisher stalled: one that cannot subscribe publishes nothing, and the orchestrator must see it. */
  get ready(): boolean {
    return this.started && !this.publishers.some((publisher) => publisher.stalled);
  }

  /** Publishers whose subscription keeps being refused: `/ready` names them. */
  stalledPublishers(): string[] {
    return this.publishers.filter((publisher) => publisher.stalled).map((publisher) => publisher.name);
  }

  /** Embedded mode: the in-memory read models are loaded from their snapshot and snapshotted again. */
  private readModelSnapshots(): ReadModelSnapshots | undefined {
    const { readStore, eventStore, readModelSnapshot } = this.adapters;
    if (!readModelSnapshot || !(readStore instanceof MemoryReadStore)) return undefined;
    return new ReadModelSnapshots(readModelSnapshot, readStore, this.runner, eventStore, new Logger('ReadModelSnapshots'));
  }

  /** The position of each publisher this replica runs: `/metrics` shows how far behind the event store the bus is. */
  publisherPositions(): Array<{ name: string; position: number }> {
    return this.publishers.filter((publisher) => publisher.active).map((publisher) => ({ name: publisher.name, position: publisher.publishedPosition }));
  }

  /**
   * Everything of `source` up to this event-store position is on the bus: this process's publisher of it, else
   * the checkpoint of the process that publishes it. In-process, publishing settles once every consumer has
   * handled the event, so this is also how far the consumers here have got.
   */
  async publishedPosition(source: string): Promise<number> {
    const local = this.publishers.find((publisher) => publisher.name === source && publisher.active);
    if (local) return local.publishedPosition;
    return (await this.adapters.checkpoints.load(IntegrationPublisher.checkpointOf(source))) ?? 0;
  }

  async onApplicationShutdown(): Promise<void> {
    this.started = false;
    for (const publisher of this.publishers) await publisher.stop();
    await this.runner.stop();
    // A process that boots the service for one call (the admin CLI) loads snapshots but leaves writing them to
    // the service.
    if (this.options.background) await this.snapshots?.stop();
    await this.adapters.eventStore.close();
    await this.adapters.readStore.close();
  }
}
