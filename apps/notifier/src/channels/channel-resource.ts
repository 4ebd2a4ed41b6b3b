import { CHANNELS, toResource, type ChannelDocument, type ChannelResource } from '@pss/contracts';
import { notFound } from '@pss/kernel';
import type { AggregateRepository } from '@pss/platform';
import { channelStream } from './channel.events';
import type { ChannelProjection } from './channel.projection';

/** The channel as the API shows it, as the command's write left it (whether or not the read model has it yet). */
export async function channelResource(aggregates: AggregateRepository, projection: ChannelProjection, channelId: string): Promise<ChannelResource> {
  const doc = await aggregates.written<ChannelDocument>(channelStream(channelId), projection, CHANNELS, channelId);
  if (!doc) throw notFound('Webhook');
  return toResource(doc);
}
