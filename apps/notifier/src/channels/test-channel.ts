import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { integrationEventId, type ChannelCommandEnvelope, type ChannelTestResult } from '@pss/contracts';
import type { CommandMetaCarrier } from '@pss/bus';
import { CLOCK, deterministicUuid, uuidv7, type Clock } from '@pss/kernel';
import { AggregateRepository } from '@pss/platform';
import { Deliveries } from '../delivery/deliveries';
import { deliveryIdFor } from '../delivery/delivery.events';
import { testEvent } from '../events/webhook-event';
import { channelDecider, managedChannel, type ChannelManager } from './channel.decider';
import { channelStream } from './channel.events';

export class TestChannel extends Command<ChannelTestResult> {
  constructor(
    readonly request: Pick<ChannelCommandEnvelope, 'orgId' | 'id'> & CommandMetaCarrier,
    readonly manager: ChannelManager = 'api',
  ) {
    super();
  }
}

/**
 * POST /webhooks/{id}/test (and the dashboard's e-mail test): a signed `test` event, one attempt, whatever the channel's filters and even when it
 * is inactive; answered once the attempt is over. It is a delivery like any other, so the history shows it.
 */
@CommandHandler(TestChannel)
export class TestChannelHandler implements ICommandHandler<TestChannel> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly deliveries: Deliveries,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
  ) {}

  async execute({ request: { orgId, id, command }, manager }: TestChannel): Promise<ChannelTestResult> {
    const channelId = id!;
    // Another organization's channel, a deleted one or the other manager's is not found, as for PATCH and DELETE.
    managedChannel((await this.aggregates.load(channelStream(channelId), channelDecider)).state, orgId, manager);
    const at = this.clock.now();
    // One event per command: a redelivered test (a rebalance, a client's retry with its key) joins or answers the
    // first delivery's attempt instead of sending a second test. A command without an id is always new.
    const eventId = integrationEventId(command ? deterministicUuid('channel-test', command.id) : uuidv7(at.getTime()));
    const event = testEvent(channelId, orgId, eventId, at, this.config.publicUrl);
    await this.deliveries.request(channelId, event, 1);
    const deliveryId = deliveryIdFor(channelId, eventId);
    const delivery = await this.deliveries.attempt(deliveryId, 'test');
    const delivered = delivery?.status === 'delivered';
    return { id: channelId, delivered, error: delivered ? null : (delivery?.lastError ?? 'the attempt was not completed') };
  }
}
