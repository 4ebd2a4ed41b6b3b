import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { ATTEMPT_ERRORS } from '@pss/contracts';
import { CLOCK, type Clock } from '@pss/kernel';
import { Metrics } from '@pss/metrics';
import { AggregateRepository, type CommandContext } from '@pss/platform';
import { ChannelDirectory } from '../channels/channel-directory';
import type { WebhookEvent } from '../events/webhook-event';
import { Courier, endpointOf } from '../outbound/courier';
import { deliveryDecider, MAX_ATTEMPTS, type AttemptOutcome, type DeliveryState } from './delivery.decider';
import { deliveryIdFor, deliveryStream } from './delivery.events';
import { DELIVERY_SHARES, ENDPOINT_BREAKER, TEST_SHARES } from './delivery-shares';
import { EndpointBreakers, type EndpointVerdict } from './endpoint-breakers';
import { FairQueue, PARKED } from './fair-queue';

/** The label the notifier acts under. */
export const SYSTEM_ACTOR = 'system';

/** Attempts waiting for a turn in memory, all organizations together; the rest wait for a retry cycle. */
export const MAX_ATTEMPTS_QUEUED = 5_000;

/** The delivery as its attempt left it, and what the attempt met (none when it was not sent). */
interface Attempted {
  state: DeliveryState;
  outcome?: AttemptOutcome;
}

const verdictOf = ({ outcome }: Attempted): EndpointVerdict => {
  if (!outcome) return 'unknown';
  return !outcome.delivered && outcome.error === ATTEMPT_ERRORS.timeout ? 'timeout' : 'prompt';
};

/**
 * Requests deliveries and makes their attempts. A request is recorded before anything is sent, so a crash loses
 * nothing: the retry cycle finds it pending. Every attempt is claimed on the delivery's stream before it is
 * sent, so two processes never make the same one, and a recorded success is never sent again. Attempts take turns
 * in a fair queue (delivery-shares.ts), so a tenant's slow receivers cost that tenant only; tests have their own.
 */
@Injectable()
export class Deliveries implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Deliveries');
  private readonly queue: FairQueue<Attempted>;
  private readonly tests = new FairQueue<Attempted>(TEST_SHARES);
  /** Attempts under way in this process, so the retry cycle and the fan-out never run one twice at once. */
  private readonly underWay = new Map<string, Promise<DeliveryState | undefined>>();
  private closing = false;

  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly channels: ChannelDirectory,
    private readonly courier: Courier,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly metrics: Metrics,
  ) {
    this.queue = new FairQueue<Attempted>(DELIVERY_SHARES, { endpoints: new EndpointBreakers(ENDPOINT_BREAKER, clock), verdictOf });
  }

  /** Records that the event is to go to the channel; answers the delivery's id, or undefined when it was requested before. */
  async request(channelId: string, event: WebhookEvent, maxAttempts = MAX_ATTEMPTS): Promise<string | undefined> {
    const deliveryId = deliveryIdFor(channelId, event.envelope.id);
    const delivery = { deliveryId, channelId, orgId: event.orgId, event: event.envelope, maxAttempts };
    const { events } = await this.aggregates.decide(deliveryStream(deliveryId), deliveryDecider, { type: 'RequestDelivery', delivery, at: this.clock.now() }, this.contextOf(event.orgId));
    return events.length ? deliveryId : undefined;
  }

  /**
   * Makes the delivery's next attempt if it is due and no one else makes it; answers the delivery as it then is.
   * A test's attempt (POST /webhooks/{id}/test) takes the tests' line.
   */
  attempt(deliveryId: string, line: 'delivery' | 'test' = 'delivery'): Promise<DeliveryState | undefined> {
    const running = this.underWay.get(deliveryId);
    if (running) return running;
    // Beyond the queue's size an attempt is left pending (it is recorded): the next retry cycle makes it.
    if (this.closing || this.underWay.size >= MAX_ATTEMPTS_QUEUED) return Promise.resolve(undefined);
    const attempt = this.run(deliveryId, line === 'test' ? this.tests : this.queue)
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

  /** Waits for the attempt's turn in `queue`; a parked attempt is left as it was, pending, for the retry cycle. */
  private async run(deliveryId: string, queue: FairQueue<Attempted>): Promise<DeliveryState> {
    const { state } = await this.aggregates.load(deliveryStream(deliveryId), deliveryDecider);
    if (state.status !== 'pending') return state;
    const { channelId, orgId } = state.delivery!;
    const { channel } = await this.channels.current(channelId);
    const lane = { org: orgId, endpoint: channel ? endpointOf(channel) : 'none' };
    const attempted = await queue.run(lane, () => (this.closing ? Promise.resolve({ state }) : this.send(state)));
    return attempted === PARKED ? state : attempted.state;
  }

  private async send(requested: DeliveryState): Promise<Attempted> {
    const { deliveryId, channelId, orgId, event } = requested.delivery!;
    const stream = deliveryStream(deliveryId);
    const context = this.contextOf(orgId);
    // Read again once it is this attempt's turn: the channel may have changed while it waited.
    const { channel, condition } = await this.channels.current(channelId);
    const claimed = await this.aggregates.decide(stream, deliveryDecider, { type: 'StartAttempt', channel: condition, at: this.clock.now() }, context);
    if (!claimed.events.some((recorded) => recorded.type === 'DeliveryAttemptStarted')) return { state: claimed.state };
    const { attempt } = claimed.state;
    const outcome = await this.courier.send(channel!, deliveryId, event);
    const recorded = await this.aggregates.decide(stream, deliveryDecider, { type: 'RecordOutcome', attempt, outcome, at: this.clock.now() }, context);
    this.metrics.deliveryAttempt(outcome.delivered ? 'delivered' : recorded.state.status === 'failed' ? 'failed' : 'retry_scheduled');
    if (!outcome.delivered) this.logger.warn({ message: 'delivery attempt failed', delivery_id: deliveryId, channel_id: channelId, attempt, error: outcome.error, status: recorded.state.status });
    return { state: recorded.state, outcome };
  }

  private contextOf(orgId: string): CommandContext {
    return { actor: SYSTEM_ACTOR, orgId };
  }
}
