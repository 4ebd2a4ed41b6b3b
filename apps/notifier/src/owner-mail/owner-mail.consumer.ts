import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { INVENTORY_TOPICS as T, type InventoryFactOf } from '@pss/contracts';
import { CLOCK, deterministicUuid, type Clock } from '@pss/kernel';
import { AggregateRepository } from '@pss/platform';
import { channelDecider } from '../channels/channel.decider';
import { channelStream, type Channel } from '../channels/channel.events';
import { SYSTEM_ACTOR } from '../delivery/deliveries';
import { ownerMailDecider, ownerMailStream, type OwnerMailCommand, type OwnerMailState } from './owner-mail.decider';

/** The store owner's default e-mail channel: one per store, so its id follows from the store's. */
export const ownerMailChannelId = (storeId: string): string => deterministicUuid('owner-mail-channel', storeId);

/**
 * Every store gets an e-mail channel to its organization's owner (spec, POST /stores), made here from inventory's
 * announcements once both the owner's address and the store are known, whichever came first. A suspended store's
 * channel is deactivated, or made inactive when the suspension came first (topics have no order between them).
 * Every step is idempotent: a redelivered announcement changes nothing.
 */
@Controller()
export class OwnerMailConsumer {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @EventPattern(T.organizationCreated)
  async organizationCreated(@Payload() { data }: InventoryFactOf<typeof T.organizationCreated>): Promise<void> {
    if (!data.owner_email) return;
    const state = await this.learn({ type: 'LearnOwnerEmail', orgId: data.org_id, email: data.owner_email });
    for (const storeId of state.stores) await this.ensureChannel(data.org_id, storeId, state);
  }

  @EventPattern(T.storeCreated)
  async storeCreated(@Payload() { org_id: orgId, data }: InventoryFactOf<typeof T.storeCreated>): Promise<void> {
    if (!orgId) return;
    const state = await this.learn({ type: 'LearnStore', orgId, storeId: data.store_id });
    await this.ensureChannel(orgId, data.store_id, state);
  }

  // The suspension is remembered first: announced before the store, it still makes the store's channel inactive.
  @EventPattern(T.storeSuspended)
  async storeSuspended(@Payload() { org_id: orgId, data }: InventoryFactOf<typeof T.storeSuspended>): Promise<void> {
    if (orgId) await this.learn({ type: 'LearnStoreSuspended', orgId, storeId: data.store_id });
    const command = { type: 'DeactivateChannel' as const, at: this.clock.now() };
    await this.aggregates.decide(channelStream(ownerMailChannelId(data.store_id)), channelDecider, command, { actor: SYSTEM_ACTOR, orgId: orgId ?? undefined });
  }

  private async learn(command: OwnerMailCommand): Promise<OwnerMailState> {
    const { state } = await this.aggregates.decide(ownerMailStream(command.orgId), ownerMailDecider, command, { actor: SYSTEM_ACTOR, orgId: command.orgId });
    return state;
  }

  private async ensureChannel(orgId: string, storeId: string, { email, suspended }: OwnerMailState): Promise<void> {
    if (!email) return;
    const channel: Channel = {
      channelId: ownerMailChannelId(storeId),
      orgId,
      storeId,
      type: 'email',
      format: null,
      name: 'Store owner e-mail',
      url: null,
      events: null,
      minSeverity: 'high',
      active: !suspended.includes(storeId),
      secret: null,
      recipients: [email],
    };
    const at = this.clock.now();
    await this.aggregates.decide(channelStream(channel.channelId), channelDecider, { type: 'CreateChannel', channel, at }, { actor: SYSTEM_ACTOR, orgId });
  }
}
