import { Inject, Injectable } from '@nestjs/common';
import { CHANNELS, DELIVERIES, DELIVERY_HISTORY_DAYS, DELIVERY_HISTORY_SIZE, toResource, type ChannelDocument, type DeliveryDocument } from '@pss/contracts';
import { addDays, CLOCK, validationError, type Clock } from '@pss/kernel';
import { OpsCommand, type OpsArgs } from '@pss/ops';
import { READ_STORE, type ReadStore } from '@pss/read-store';

/**
 * What the dashboard shows of channels, for operators (`npm run -s admin -- channels list --org ID`,
 * `deliveries list --channel ID`): e-mail channels included, and the delivery history the API does not expose.
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

  /** A channel's last 50 deliveries of the last 90 days, newest first. */
  @OpsCommand('deliveries.list')
  async deliveries(args: OpsArgs) {
    const since = addDays(this.clock.now(), -DELIVERY_HISTORY_DAYS).toISOString();
    const deliveries = await this.readStore
      .collection<DeliveryDocument>(DELIVERIES)
      .find({ channel_id: required(args, 'channel'), created_at: { $gte: since } }, { sort: { created_at: -1, _id: -1 }, limit: DELIVERY_HISTORY_SIZE });
    return { data: deliveries.map(toResource) };
  }
}

function required(args: OpsArgs, name: string): string {
  const value = args[name];
  if (typeof value !== 'string' || !value) throw validationError([{ field: name, message: `--${name} is required` }]);
  return value;
}
