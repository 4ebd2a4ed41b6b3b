import { Inject, Injectable } from '@nestjs/common';
import { assertStoreWritable, CHANNELS, toResource, type ChannelDocument, type ChannelResource } from '@pss/contracts';
import { notFound } from '@pss/kernel';
import { AggregateRepository } from '@pss/platform';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { ownStore } from '@pss/store-reads';
import { channelDecider, managedChannel, type ChannelManager } from './channel.decider';
import { channelStream } from './channel.events';
import { assertRoomForChannel } from './channel-limits';
import { ChannelProjection } from './channel.projection';

/**
 * What a channel command checks before it decides and answers after, for webhooks (the API) and e-mail channels
 * (the dashboard) alike: a store's channels change only while their store does, and the answer is the written channel.
 */
@Injectable()
export class ChannelAccess {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly projection: ChannelProjection,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {}

  /** A new channel: on the caller's store only while it changes, and within the organization's channel limit. */
  async assertRoomFor(orgId: string, storeId: string | null): Promise<void> {
    if (storeId) assertStoreWritable(await ownStore(this.readStore, orgId, storeId));
    await assertRoomForChannel(this.readStore, orgId, storeId);
  }

  /** A change to a channel of `manager`'s (another manager's channel does not exist for it), only while its store changes. */
  async assertStoreWritable(orgId: string, channelId: string, manager?: ChannelManager): Promise<void> {
    const { storeId } = managedChannel((await this.aggregates.load(channelStream(channelId), channelDecider)).state, orgId, manager);
    if (storeId) assertStoreWritable(await ownStore(this.readStore, orgId, storeId));
  }

  /** The channel as the API shows it, as the command's write left it (whether or not the read model has it yet). */
  async written(channelId: string): Promise<ChannelResource> {
    const doc = await this.aggregates.written<ChannelDocument>(channelStream(channelId), this.projection, CHANNELS, channelId);
    if (!doc) throw notFound('Webhook');
    return toResource(doc);
  }
}
