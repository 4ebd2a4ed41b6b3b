import { Controller, Inject } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { commandActor, type CommandMetaCarrier } from '@pss/bus';
import {
  COMMANDS,
  type ChannelResource,
  type ChannelTestResult,
  type EmailChannelChanges,
  type EmailChannelInput,
  type EmailChannelRequest,
} from '@pss/contracts';
import { CLOCK, deterministicUuid, uuidv7, type Clock } from '@pss/kernel';
import { AggregateRepository, type CommandContext } from '@pss/platform';
import { channelDecider, type ChannelCommand } from './channel.decider';
import { channelStream } from './channel.events';
import { ChannelAccess } from './channel-access';
import { emailChannel, emailChannelChanges } from './email-channel';
import { TestChannel } from './test-channel';

type Request<Input = undefined> = EmailChannelRequest<Input> & CommandMetaCarrier;

/**
 * The dashboard's e-mail channels (the API refuses them: spec, Events). Same aggregate, read model and
 * deliveries as webhooks; what differs is who may touch which (ChannelManager) and what a channel holds.
 */
@Controller()
export class EmailChannelsMessages {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly access: ChannelAccess,
    private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @MessagePattern(COMMANDS.emailChannelCreate)
  async create(@Payload() { orgId, input, command }: Request<EmailChannelInput>): Promise<ChannelResource> {
    const context = contextOf(orgId, command);
    const storeId = input.store_id?.toLowerCase() ?? null;
    await this.access.assertRoomFor(orgId, storeId);
    const at = this.clock.now();
    // From the command's id: a redelivered create finds its channel made and changes nothing.
    const channelId = command ? deterministicUuid('email-channel', command.id) : uuidv7(at.getTime());
    const channel = emailChannel(channelId, orgId, storeId, input);
    await this.aggregates.decide(channelStream(channelId), channelDecider, { type: 'CreateChannel', channel, at }, context);
    return this.access.written(channelId);
  }

  @MessagePattern(COMMANDS.emailChannelUpdate)
  async update(@Payload() { orgId, id, input, command }: Request<EmailChannelChanges>): Promise<ChannelResource> {
    const channelId = id!;
    await this.access.assertStoreWritable(orgId, channelId, 'dashboard');
    const change: ChannelCommand = { type: 'UpdateChannel', orgId, changes: emailChannelChanges(input), at: this.clock.now(), managedBy: 'dashboard' };
    await this.aggregates.decide(channelStream(channelId), channelDecider, change, contextOf(orgId, command));
    return this.access.written(channelId);
  }

  @MessagePattern(COMMANDS.emailChannelDelete)
  async delete(@Payload() { orgId, id, command }: Request): Promise<{ id: string; deleted: true }> {
    const change: ChannelCommand = { type: 'DeleteChannel', orgId, at: this.clock.now(), managedBy: 'dashboard' };
    await this.aggregates.decide(channelStream(id!), channelDecider, change, contextOf(orgId, command));
    return { id: id!, deleted: true };
  }

  /** One `test` e-mail to every recipient, recorded as a delivery: the channel's history shows it. */
  @MessagePattern(COMMANDS.emailChannelTest)
  test(@Payload() { orgId, id, command }: Request): Promise<ChannelTestResult> {
    return this.commands.execute(new TestChannel({ orgId, id, command }, 'dashboard'));
  }
}

const contextOf = (orgId: string, command: Request['command']): CommandContext => ({ actor: commandActor(command), orgId, deadline: command?.deadline });
