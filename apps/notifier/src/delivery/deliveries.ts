import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { CLOCK, type Clock } from '@pss/kernel';
import { Metrics } from '@pss/metrics';
import { AggregateRepository, type CommandContext } from '@pss/platform';
import { ChannelDirectory } from '../channels/channel-directory';
import type { WebhookEvent } from '../events/webhook-event';
import { Courier, endpointOf } from '../outbound/courier';
import { PER_ENDPOINT_CONCURRENCY } from '../outbound/delivery-client-settings';
import { EndpointGate } from '../outbound/endpoint-gate';
import { deliveryDecider, MAX_ATTEMPTS, type DeliveryState } from './delivery.decider';
import { deliveryIdFor, deliveryStream } from './delivery.events';

/** The label the notifier acts under. */
export const SYSTEM_ACTOR = 'system';

/** Attempts one process makes at once, and how many more wait for a turn in memory (the rest wait for a retry cycle). */
export const ATTEMPTS_AT_ONCE = 32;
export const MAX_ATTEMPTS_QUEUED = 5_000;
const ALL_ENDPOINTS = 'all';

/**
 * Requests deliveries and makes their attempts. A request is recorded before anything is sent, so a crash loses
 * nothing: the retry cycle finds it pending. Every attempt is claimed on the delivery's stream before it is
 * sent, so two processes never make the same one, and a recorded success is never sent again.
 */
@Injectable()
export class Deliveries implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Deliveries');
  private readonly gate = new EndpointGate(PER_ENDPOINT_CONCURRENCY);
  /** Attempts of this process under way at once, whatever the endpoints: a fan-out waits its turn. */
  private readonly inProcess = new EndpointGate(ATTEMPTS_AT_ONCE);
  /** Attempts under way in this process, so the retry cycle and the fan-out never run one twice at once. */
  private readonly underWay = new Map<string, Promise<DeliveryState | undefined>>();
  private closing = false;

  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly channels: ChannelDirectory,
    private readonly courier: Courier,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly metrics: Metrics,
  ) {}

  /** Records that the event is to go to the channel; answers the delivery's id, or undefined when it was requested before. */
  async request(channelId: string, event: WebhookEvent, maxAttempts = MAX_ATTEMPTS): Promise<string | undefined> {
    const deliveryId = deliveryIdFor(channelId, event.envelope.id);
    const delivery = { deliveryId, channelId, orgId: event.orgId, event: event.envelope, maxAttempts };
    const { events } = await this.aggregates.decide(deliveryStream(deliveryId), deliveryDecider, { type: 'RequestDelivery', delivery, at: this.clock.now() }, this.contextOf(event.orgId));
    return events.length ? deliveryId : undefined;
  }

  /** Makes the delivery's next attempt if it is due and no one else makes it; answers the delivery as it then is. */
  attempt(deliveryId: string): Promise<DeliveryState | undefined> {
    const running = this.underWay.get(deliveryId);
    if (running) return running;
    // Beyond the queue's size an attempt is left pending (it is recorded): the next retry cycle makes it.
    if (this.closing || this.underWay.size >= MAX_ATTEMPTS_QUEUED) return Promise.resolve(undefined);
    const attempt = this.inProcess
      .run(ALL_ENDPOINTS, () => (this.closing ? Promise.resolve(undefined) : this.run(deliveryId)))
      .catch((error: Error) => {
        // Left pending: the retry cycle takes it up again once its claim runs out.
        this.logger.error({ message: 'delivery attempt not completed', delivery_id: deliveryId, error: error.message });
        return undefined;
      })
      .finally(() => this.underWay.delete(deliveryId));
    this.underWay.set(deliveryId, attempt);
    return attempt;
  }

  /** Lets the attempts under way finish (each is bounded by the delivery timeout) and starts no new one. */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    await Promise.allSettled(this.underWay.values());
  }

  private async run(deliveryId: string): Promise<DeliveryState> {
    const stream = deliveryStream(deliveryId);
    const { state } = await this.aggregates.load(stream, deliveryDecider);
    if (state.status !== 'pending') return state;
    const { channelId, orgId, event } = state.delivery!;
    const context = this.contextOf(orgId);
    const { channel: before } = await this.channels.current(channelId);
    return this.gate.run(before ? endpointOf(before) : 'none', async () => {
      // Read again once it is this attempt's turn: the channel may have changed while it waited.
      const { channel, condition } = await this.channels.current(channelId);
      const claimed = await this.aggregates.decide(stream, deliveryDecider, { type: 'StartAttempt', channel: condition, at: this.clock.now() }, context);
      if (!claimed.events.some((recorded) => recorded.type === 'DeliveryAttemptStarted')) return claimed.state;
      const { attempt } = claimed.state;
      const outcome = await this.courier.send(channel!, deliveryId, event);
      const recorded = await this.aggregates.decide(stream, deliveryDecider, { type: 'RecordOutcome', attempt, outcome, at: this.clock.now() }, context);
      this.metrics.deliveryAttempt(outcome.delivered ? 'delivered' : recorded.state.status === 'failed' ? 'failed' : 'retry_scheduled');
      if (!outcome.delivered) this.logger.warn({ message: 'delivery attempt failed', delivery_id: deliveryId, channel_id: channelId, attempt, error: outcome.error, status: recorded.state.status });
      return recorded.state;
    });
  }

  private contextOf(orgId: string): CommandContext {
    return { actor: SYSTEM_ACTOR, orgId };
  }
}
