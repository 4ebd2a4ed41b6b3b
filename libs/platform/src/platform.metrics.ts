import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '@pss/event-store';
import { Metrics } from '@pss/metrics';
import { ProjectionRunner } from '@pss/projections';
import { PlatformLifecycle } from './platform.lifecycle';

/**
 * Where the read models and the outbox stand against the event store, read when Prometheus scrapes: positions
 * and lag (in event-store positions) per projection and per integration publisher.
 */
@Injectable()
export class PlatformMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    private readonly runner: ProjectionRunner,
    private readonly lifecycle: PlatformLifecycle,
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
  ) {}

  onModuleInit(): void {
    const { metrics, runner, lifecycle, eventStore } = this;
    metrics.gauge('pss_event_store_head_position', 'Global position of the newest event', [], async () => [
      { labels: {}, value: await eventStore.headPosition() },
    ]);
    metrics.gauge('pss_projection_position', 'Event-store position each projection has reached', ['projection'], async () =>
      (await runner.status()).map((status) => ({ labels: { projection: status.name }, value: status.checkpoint })),
    );
    metrics.gauge('pss_projection_lag', 'Event-store positions each projection is behind the head', ['projection'], async () =>
      (await runner.status()).map((status) => ({ labels: { projection: status.name }, value: status.lag })),
    );
    metrics.gauge('pss_publisher_position', 'Event-store position each integration publisher (outbox) has put on the bus', ['publisher'], async () =>
      lifecycle.publisherPositions().map(({ name, position }) => ({ labels: { publisher: name }, value: position })),
    );
    metrics.gauge('pss_publisher_lag', 'Event-store positions each integration publisher is behind the head', ['publisher'], async () => {
      const head = await eventStore.headPosition();
      return lifecycle.publisherPositions().map(({ name, position }) => ({ labels: { publisher: name }, value: Math.max(0, head - position) }));
    });
  }
}
