import { notFound, type Decider } from '@pss/kernel';
import type { Channel, ChannelEvent, ChannelSettings } from './channel.events';

export type ChannelCommand =
  /** A channel that exists already (the e-mail channel of a store heard of twice) is left as it is. */
  | { type: 'CreateChannel'; channel: Channel; at: Date }
  | { type: 'UpdateChannel'; orgId: string; changes: Partial<ChannelSettings>; secret?: string; at: Date; managedBy?: ChannelManager }
  | { type: 'DeleteChannel'; orgId: string; at: Date; managedBy?: ChannelManager }
  /** The service's own: the e-mail channel of a suspended store stops. */
  | { type: 'DeactivateChannel'; at: Date };

/** Who manages a channel: the API its webhooks, the dashboard its e-mail channels (the default is the API). */
export type ChannelManager = 'api' | 'dashboard';

export interface ChannelState {
  channel?: Channel;
  deleted: boolean;
}

export const channelDecider: Decider<ChannelState, ChannelCommand, ChannelEvent> = {
  initialState: () => ({ deleted: false }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateChannel':
        return state.channel ? [] : [{ type: 'ChannelCreated', data: { ...command.channel, createdAt: command.at.toISOString() } }];
      case 'UpdateChannel': {
        const channel = managedChannel(state, command.orgId, command.managedBy);
        const changes = changed(channel, command.changes);
        if (Object.keys(changes).length === 0 && command.secret === undefined) return [];
        const secret = command.secret === undefined ? {} : { secret: command.secret };
        return [{ type: 'ChannelUpdated', data: { channelId: channel.channelId, changes, ...secret, updatedAt: command.at.toISOString() } }];
      }
      case 'DeleteChannel':
        return [{ type: 'ChannelDeleted', data: { channelId: managedChannel(state, command.orgId, command.managedBy).channelId, deletedAt: command.at.toISOString() } }];
      case 'DeactivateChannel': {
        const { channel } = state;
        if (!channel || state.deleted || !channel.active) return [];
        return [{ type: 'ChannelUpdated', data: { channelId: channel.channelId, changes: { active: false }, updatedAt: command.at.toISOString() } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ChannelCreated': {
        const { createdAt: _createdAt, ...channel } = event.data;
        return { channel, deleted: false };
      }
      case 'ChannelUpdated': {
        const { changes, secret } = event.data;
        return { ...state, channel: { ...state.channel!, ...changes, ...(secret === undefined ? {} : { secret }) } };
      }
      case 'ChannelDeleted':
        return { ...state, deleted: true };
    }
  },
};

/**
 * A channel this organization manages through `manager`. Another organization's channel, a deleted one and the
 * other manager's channels (the dashboard's e-mail channels for the API, webhooks for the dashboard's e-mail
 * pages) are not found, as a missing one.
 */
export function managedChannel(state: ChannelState, orgId: string, manager: ChannelManager = 'api'): Channel {
  const { channel } = state;
  const email = manager === 'dashboard';
  if (!channel || state.deleted || channel.orgId !== orgId || (channel.type === 'email') !== email) throw notFound(email ? 'E-mail channel' : 'Webhook');
  return channel;
}

/** The settings that differ from the channel's. */
function changed(channel: Channel, wanted: Partial<ChannelSettings>): Partial<ChannelSettings> {
  const entries = Object.entries(wanted).filter(
    ([key, value]) => value !== undefined && JSON.stringify(value) !== JSON.stringify(channel[key as keyof ChannelSettings]),
  );
  return Object.fromEntries(entries);
}
