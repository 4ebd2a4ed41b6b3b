import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { CHANNELS, type ChannelDocument, type IntegrationEvent } from '@pss/contracts';
import { yieldToRequests } from '@pss/kernel';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { wants } from '../events/channel-filter';
import { NOTIFIED_TOPICS, webhookEventOf } from '../events/webhook-event';
import { Deliveries } from './deliveries';

/**
 * The integration events of inventory, alerts and reports that become webhook events, in this service's own
 * consumer group: each goes to every channel of its organization that wants it. At least once: an event
 * delivered again finds its deliveries already requested and sends nothing more.
 */
@Controller()
export class NotificationsConsumer {
  constructor(
    private readonly deliveries: Deliveries,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
  ) {}

  @EventPattern(NOTIFIED_TOPICS)
  async notify(@Payload() integrationEvent: IntegrationEvent): Promise<void> {
    const event = webhookEventOf(integrationEvent, this.config.publicUrl);
    if (!event) return;
    const candidates = await this.readStore
      .collection<ChannelDocument>(CHANNELS)
      .find({ org_id: event.orgId, active: true, $or: [{ store_id: null }, { store_id: event.storeId }] });
    for (const channel of candidates.filter((candidate) => wants(candidate, event))) {
      // Bounded by the channel caps (channel-limits.ts), and cut into slices so requests are served in between.
      await yieldToRequests();
      const deliveryId = await this.deliveries.request(channel._id, event);
      // Not awaited: the bus hands this consumer the next event without waiting for any receiver.
      if (deliveryId) void this.deliveries.attempt(deliveryId);
    }
  }
}
