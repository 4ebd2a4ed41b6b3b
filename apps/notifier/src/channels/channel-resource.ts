import { CHANNELS, toResource, type ChannelDocument, type ChannelResource } from '@pss/contracts';
import { notFound } from '@pss/kernel';
import type { ReadStore } from '@pss/read-store';

/** The channel as the API shows it, from the read model the write just reached. */
export async function channelResource(readStore: ReadStore, channelId: string): Promise<ChannelResource> {
  const doc = await readStore.collection<ChannelDocument>(CHANNELS).findOne({ _id: channelId });
  if (!doc) throw notFound('Webhook');
  return toResource(doc);
}
