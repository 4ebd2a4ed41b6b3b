import { CHANNELS, type ChannelDocument } from '@pss/contracts';
import { canHandle } from '@pss/event-store';
import { applyOnce, deleteOnce, readModelProjection } from '@pss/projections';
import type { DeliveryEvent } from '../delivery/delivery.events';
import type { ChannelEvent, ChannelSettings } from './channel.events';

const isChannelEvent = canHandle<ChannelEvent | Extract<DeliveryEvent, { type: 'DeliverySucceeded' }>>({
  ChannelCreated: true,
  ChannelUpdated: true,
  ChannelDeleted: true,
  DeliverySucceeded: true,
});

/**
 * `channels`: what GET /webhooks lists and the fan-out matches events against; never a secret, sealed or not.
 * A successful delivery moves `last_used_at`. Deleted channels leave it.
 */
export class ChannelProjection extends readModelProjection({
  name: CHANNELS,
  streamPrefixes: ['channel-', 'delivery-'],
  eventTypes: ['ChannelCreated', 'ChannelUpdated', 'ChannelDeleted', 'DeliverySucceeded'],
  collections: {
    [CHANNELS]: [{ key: { org_id: 1, created_at: -1, _id: -1 } }, { key: { org_id: 1, active: 1, store_id: 1 } }],
  },
  canHandle: isChannelEvent,
  async evolve(event, context) {
    const channels = context.collection<ChannelDocument>(CHANNELS);
    switch (event.type) {
      case 'ChannelCreated': {
        const { data } = event;
        const document: Omit<ChannelDocument, '_id'> = {
          org_id: data.orgId,
          store_id: data.storeId,
          type: data.type,
          name: data.name,
          url: data.url,
          format: data.format,
          has_secret: data.secret !== null,
          events: data.events,
          min_severity: data.minSeverity,
          active: data.active,
          last_used_at: null,
          created_at: data.createdAt,
          updated_at: data.createdAt,
          ...(data.recipients ? { recipients: data.recipients } : {}),
        };
        await applyOnce(channels, data.channelId, event, { $set: document }, { upsert: true });
        return;
      }
      case 'ChannelUpdated': {
        const { channelId, changes, secret, updatedAt } = event.data;
        await applyOnce(channels, channelId, event, { $set: { ...fieldsOf(changes), ...(secret ? { has_secret: true } : {}), updated_at: updatedAt } });
        return;
      }
      case 'ChannelDeleted':
        await deleteOnce(channels, event.data.channelId, event);
        return;
      case 'DeliverySucceeded':
        await applyOnce(channels, event.data.channelId, event, { $max: { last_used_at: event.data.at } });
        return;
    }
  },
}) {}

/** The read model's names of the settings that changed. */
function fieldsOf(changes: Partial<ChannelSettings>): Partial<ChannelDocument> {
  const { minSeverity, recipients, ...same } = changes;
  return { ...same, ...(minSeverity === undefined ? {} : { min_severity: minSeverity }), ...(recipients ? { recipients } : {}) };
}
