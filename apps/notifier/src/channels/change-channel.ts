import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { assertStoreWritable, type ChannelResource, type UpdateChannelInput } from '@pss/contracts';
import { CLOCK, type Clock } from '@pss/kernel';
import { AggregateRepository, type CommandContext } from '@pss/platform';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { SecretBox, webhookSecretInTransit } from '@pss/secrets';
import { ownStore } from '@pss/store-reads';
import { channelDecider, managedChannel, type ChannelCommand } from './channel.decider';
import { channelStream } from './channel.events';
import { channelResource } from './channel-resource';
import { ChannelProjection } from './channel.projection';
import { distinct } from './create-channel';

export type ChannelChange = { kind: 'update'; input: UpdateChannelInput } | { kind: 'delete' };
export type DeletedChannel = { id: string; deleted: true };

export class ChangeChannel extends Command<ChannelResource | DeletedChannel> {
  constructor(
    readonly orgId: string,
    readonly channelId: string,
    readonly change: ChannelChange,
    readonly context: CommandContext,
  ) {
    super();
  }
}

/** PATCH and DELETE /webhooks/{id}. A new secret applies from the next attempt on, pending retries included. */
@CommandHandler(ChangeChannel)
export class ChangeChannelHandler implements ICommandHandler<ChangeChannel> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly secrets: SecretBox,
    private readonly channels: ChannelProjection,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ orgId, channelId, change, context }: ChangeChannel): Promise<ChannelResource | DeletedChannel> {
    const at = this.clock.now();
    if (change.kind === 'update') await this.assertStoreWritable(orgId, channelId);
    const command: ChannelCommand = change.kind === 'delete' ? { type: 'DeleteChannel', orgId, at } : this.update(orgId, channelId, change.input, at);
    await this.aggregates.decide(channelStream(channelId), channelDecider, command, { ...context, orgId });
    return change.kind === 'delete' ? { id: channelId, deleted: true } : channelResource(this.aggregates, this.channels, channelId);
  }

  /** A store's webhook changes only while its store does (deleting it is allowed: it only takes a webhook away). */
  private async assertStoreWritable(orgId: string, channelId: string): Promise<void> {
    const { storeId } = managedChannel((await this.aggregates.load(channelStream(channelId), channelDecider)).state, orgId);
    if (storeId) assertStoreWritable(await ownStore(this.readStore, orgId, storeId));
  }

  private update(orgId: string, channelId: string, input: UpdateChannelInput, at: Date): ChannelCommand {
    const { url, name, events, min_severity: minSeverity, active, secret } = input;
    const changes = { url, name, events: events === undefined ? undefined : distinct(events), minSeverity, active };
    // The new secret came sealed for the bus (webhookSecretInTransit); it is kept sealed for the channel.
    const stored = secret === undefined ? {} : { secret: this.secrets.seal(this.secrets.open(secret, webhookSecretInTransit(orgId)), channelId) };
    return { type: 'UpdateChannel', orgId, changes, ...stored, at };
  }
}
