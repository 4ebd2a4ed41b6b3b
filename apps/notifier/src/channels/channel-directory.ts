import { Injectable } from '@nestjs/common';
import { AggregateRepository } from '@pss/platform';
import type { ChannelCondition } from '../delivery/delivery.decider';
import type { Channel } from './channel.events';
import { channelDecider } from './channel.decider';
import { channelStream } from './channel.events';

/** A channel as it is now, from its own stream: an attempt uses the current URL, secret and state, never a copy. */
@Injectable()
export class ChannelDirectory {
  constructor(private readonly aggregates: AggregateRepository) {}

  async current(channelId: string): Promise<{ channel?: Channel; condition: ChannelCondition }> {
    const { state } = await this.aggregates.load(channelStream(channelId), channelDecider);
    if (!state.channel || state.deleted) return { condition: 'deleted' };
    return { channel: state.channel, condition: state.channel.active ? 'active' : 'inactive' };
  }
}
