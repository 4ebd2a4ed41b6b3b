import { CHANNELS, type ChannelDocument } from '@pss/contracts';
import { conflict } from '@pss/kernel';
import type { ReadStore } from '@pss/read-store';

/**
 * Every event of a store goes to its organization's organization-wide channels and to the store's own, so these
 * two caps bound the deliveries one event can cause (at most 30), whatever a tenant creates. They count every
 * channel, active or not (activating one must not get round them), the store owner's e-mail channel included.
 */
export const MAX_ORGANIZATION_WIDE_CHANNELS = 20;
export const MAX_CHANNELS_PER_STORE = 10;

/** Refuses (409 `conflict`) a new channel beyond its scope's cap. Read-model count: two creates racing may pass one over. */
export async function assertRoomForChannel(readStore: ReadStore, orgId: string, storeId: string | null): Promise<void> {
  const existing = await readStore.collection<ChannelDocument>(CHANNELS).count({ org_id: orgId, store_id: storeId });
  if (storeId === null && existing >= MAX_ORGANIZATION_WIDE_CHANNELS) {
    throw conflict(`An organization has at most ${MAX_ORGANIZATION_WIDE_CHANNELS} organization-wide webhooks; delete one or give this one a store_id`);
  }
  if (storeId !== null && existing >= MAX_CHANNELS_PER_STORE) {
    throw conflict(`A store has at most ${MAX_CHANNELS_PER_STORE} channels of its own (its owner's e-mail channel included); delete one first`);
  }
}
