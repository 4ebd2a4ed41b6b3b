import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { assertWebhookSettings, type ChannelResource, type UpdateChannelInput } from '@pss/contracts';
import { CLOCK, type Clock } from '@pss/kernel';
import { AggregateRepository, type CommandContext } from '@pss/platform';
import { SecretBox, webhookSecretInTransit } from '@pss/secrets';
import { channelDecider, type ChannelCommand } from './channel.decider';
import { channelStream } from './channel.events';
import { ChannelAccess } from './channel-access';
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
    private readonly access: ChannelAccess,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ orgId, channelId, change, context }: ChangeChannel): Promise<ChannelResource | DeletedChannel> {
    const at = this.clock.now();
    // A store's webhook changes only while its store does (deleting it is allowed: it only takes a webhook away).
    if (change.kind === 'update') {
      assertWebhookSettings(change.input, false);
      await this.access.assertStoreWritable(orgId, channelId);
    }
    const command: ChannelCommand = change.kind === 'delete' ? { type: 'DeleteChannel', orgId, at } : this.update(orgId, channelId, change.input, at);
    await this.aggregates.decide(channelStream(channelId), channelDecider, command, { ...context, orgId });
    return change.kind === 'delete' ? { id: channelId, deleted: true } : this.access.written(channelId);
  }

  private update(orgId: string, channelId: string, input: UpdateChannelInput, at: Date): ChannelCommand {
    const { url, name, events, min_severity: minSeverity, active, secret } = input;
    const changes = { url, name, events: events === undefined ? undefined : distinct(events), minSeverity, active };
    // The new secret came sealed for the bus (webhookSecretInTransit); it is kept sealed for the channel.
    const stored = secret === undefined ? {} : { secret: this.secrets.seal(this.secrets.open(secret, webhookSecretInTransit(orgId)), channelId) };
    return { type: 'UpdateChannel', orgId, changes, ...stored, at };
  }
}
