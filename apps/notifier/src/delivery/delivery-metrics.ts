import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { CLOCK, type Clock } from '@pss/kernel';
import { Metrics } from '@pss/metrics';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { PENDING_DELIVERIES, type PendingDelivery } from './delivery.projection';

/**
 * The delivery backlog, read when Prometheus scrapes: deliveries not settled yet, due now (waiting for a turn
 * or the next retry cycle) or later (a retry scheduled, or an attempt under way whose claim has not run out).
 * Attempt outcomes are counted where they are recorded (`Deliveries`).
 */
@Injectable()
export class DeliveryMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.metrics.gauge('pss_webhook_deliveries_pending', 'Webhook and e-mail deliveries not settled yet, due now or later', ['due'], async () => {
      const pending = this.readStore.collection<PendingDelivery>(PENDING_DELIVERIES);
      const [all, dueNow] = await Promise.all([pending.count({}), pending.count({ due_at: { $lte: this.clock.now().toISOString() } })]);
      return [
        { labels: { due: 'now' }, value: dueNow },
        { labels: { due: 'later' }, value: all - dueNow },
      ];
    });
  }
}
