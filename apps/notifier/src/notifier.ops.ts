import { Inject, Injectable } from '@nestjs/common';
import { CHANNELS, toResource, type ChannelDocument } from '@pss/contracts';
import { isChannelOf, recentDeliveries } from '@pss/dashboard-reads';
import { CLOCK, notFound, validationError, type Clock } from '@pss/kernel';
import { OpsCommand, type OpsArgs } from '@pss/ops';
import { READ_STORE, type ReadStore } from '@pss/read-store';

/**
 * What the dashboard shows of channels, for operators (`npm run -s admin -- channels list --org ID`,
 * `deliveries list --org ID --channel ID`): e-mail channels included, and the delivery history the API does not expose.
 */
@Injectable()
export class NotifierOps {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @OpsCommand('channels.list')
  async channels(args: OpsArgs) {
    const channels = await this.readStore.collection<ChannelDocument>(CHANNELS).find({ org_id: required(args, 'org') }, { sort: { created_at: -1, _id: -1 } });
    return { data: channels.map(toResource) };
  }

  /**
   * A channel's last 50 deliveries of the last 90 days, newest first, in the organization `--org` names: the
   * operator says whose history they read, as for every other list. A deleted channel's history is still shown.
   */
  @OpsCommand('deliveries.list')
  async deliveries(args: OpsArgs) {
    const [orgId, channelId] = [required(args, 'org'), required(args, 'channel')];
    const deliveries = await recentDeliveries(this.readStore, orgId, channelId, this.clock.now());
    // A channel of another organization (or none) is told apart from a quiet one, not answered as empty.
    if (!deliveries.length && !(await isChannelOf(this.readStore, orgId, channelId))) throw notFound('Channel');
    return { data: deliveries.map(toResource) };
  }
}

function required(args: OpsArgs, name: string): string {
  const value = args[name];
  if (typeof value !== 'string' || !value) throw validationError([{ field: name, message: `--${name} is required` }]);
  return value;
}
