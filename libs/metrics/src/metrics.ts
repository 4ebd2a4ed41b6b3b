import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Seconds; from a fast read-model GET to a write that waited for its read models. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds; an append is a local SQLite write or a round trip to EventStoreDB. */
const APPEND_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

/** `sdk_new_items`: an SDK batch answered 202 with new scripts or signals deferred, the store's budget of them spent. */
export type RateLimitName = 'api_token' | 'sdk_client' | 'sdk_store' | 'sdk_new_items';
export type SdkEndpoint = 'events' | 'csp';
export type DeliveryOutcome = 'delivered' | 'retry_scheduled' | 'failed';

/** A value read when Prometheus scrapes (positions, backlogs), one sample per label set. */
export type GaugeReader<L extends string> = () => Promise<Array<{ labels: Record<L, string>; value: number }>>;

/**
 * The process's metrics, in one registry served at `/metrics` (docs/operations.md lists them). Measured at the
 * boundaries: the HTTP hooks, the event-store decorator, the rate limiters, delivery outcomes; positions and
 * backlogs are read at scrape time instead of being pushed on every event.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly httpRequestDuration = new Histogram({
    name: 'pss_http_request_duration_seconds',
    help: 'HTTP requests by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: HTTP_BUCKETS,
    registers: [this.registry],
  });

  readonly eventStoreAppendDuration = new Histogram({
    name: 'pss_event_store_append_duration_seconds',
    help: 'Appends to the event store, by outcome (ok, conflict, error)',
    labelNames: ['outcome'] as const,
    buckets: APPEND_BUCKETS,
    registers: [this.registry],
  });

  private readonly sdkBatches = new Counter({
    name: 'pss_sdk_batches_total',
    help: 'SDK batches (endpoint events) and CSP report posts (endpoint csp) taken in, answered 202; refused ones are in the HTTP histogram by status',
    labelNames: ['endpoint'] as const,
    registers: [this.registry],
  });

  private readonly sdkObservations = new Counter({
    name: 'pss_sdk_observations_total',
    help: 'Observations in the SDK batches and CSP reports taken in, accepted or rejected one by one',
    labelNames: ['endpoint', 'outcome'] as const,
    registers: [this.registry],
  });

  private readonly rateLimitRefusals = new Counter({
    name: 'pss_rate_limit_refusals_total',
    help: 'Requests refused with 429 by limit (api_token, sdk_store), and SDK batches with new scripts or signals deferred (sdk_new_items)',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });

  private readonly webhookDeliveries = new Counter({
    name: 'pss_webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts by outcome (delivered, retry_scheduled, failed for good)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor(options: { processMetrics?: boolean } = {}) {
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }

  sdkBatch(endpoint: SdkEndpoint, accepted: number, rejected: number): void {
    this.sdkBatches.inc({ endpoint });
    this.sdkObservations.inc({ endpoint, outcome: 'accepted' }, accepted);
    this.sdkObservations.inc({ endpoint, outcome: 'rejected' }, rejected);
  }

  rateLimited(limit: RateLimitName): void {
    this.rateLimitRefusals.inc({ limit });
  }

  deliveryAttempt(outcome: DeliveryOutcome): void {
    this.webhookDeliveries.inc({ outcome });
  }

  /**
   * A gauge whose samples `read` gives at scrape time. A failing read fails only this gauge: it has no samples
   * in that scrape (NaN when it has no labels), the rest of the scrape is served.
   */
  gauge<L extends string>(name: string, help: string, labelNames: readonly L[], read: GaugeReader<L>): void {
    new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        const samples = await read().catch(() => undefined);
        if (!samples && labelNames.length === 0) this.set(Number.NaN);
        for (const sample of samples ?? []) this.set(sample.labels, sample.value);
      },
    });
  }

  /** The Prometheus text exposition and its content type. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
