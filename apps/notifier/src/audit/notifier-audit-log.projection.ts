import { auditLogProjection, type AuditedChange } from '@pss/projections';
import type { ChannelEvent } from '../channels/channel.events';

/**
 * The notifier's part of the audit log: webhooks and e-mail channels created, changed and deleted. Which fields
 * changed, never the values: a secret, even sealed, and the recipients' addresses stay out of the log.
 */
export class NotifierAuditLogProjection extends auditLogProjection<ChannelEvent>({
  owner: 'notifier',
  streamPrefixes: ['channel-'],
  handles: { ChannelCreated: true, ChannelUpdated: true, ChannelDeleted: true },
  describe(event): AuditedChange {
    switch (event.type) {
      case 'ChannelCreated': {
        const { channelId, name, type, storeId, events } = event.data;
        return { target: { type: 'channel', id: channelId, label: name }, action: 'channel.created', details: { type, store_id: storeId, events } };
      }
      case 'ChannelUpdated': {
        const { channelId, changes, secret } = event.data;
        const changed = [...Object.keys(changes).filter((field) => changes[field as keyof typeof changes] !== undefined), ...(secret ? ['secret'] : [])];
        return { target: { type: 'channel', id: channelId, label: changes.name }, action: 'channel.updated', details: { changed } };
      }
      case 'ChannelDeleted':
        return { target: { type: 'channel', id: event.data.channelId }, action: 'channel.deleted' };
    }
  },
}) {}
