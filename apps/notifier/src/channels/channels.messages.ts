import { commandActor, type CommandMetaCarrier } from '@pss/bus';
import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { COMMANDS, type ChannelCommandEnvelope, type CreateChannelInput, type UpdateChannelInput } from '@pss/contracts';
import { ChangeChannel } from './change-channel';
import { CreateChannel } from './create-channel';
import { TestChannel } from './test-channel';

/** Channel commands arriving over the bus from the gateway. */
@Controller()
export class ChannelsMessages {
  constructor(private readonly commands: CommandBus) {}

  @MessagePattern(COMMANDS.channelCreate)
  create(@Payload() request: ChannelCommandEnvelope<CreateChannelInput>) {
    return this.commands.execute(new CreateChannel(request));
  }

  @MessagePattern(COMMANDS.channelUpdate)
  update(@Payload() { orgId, id, input, command }: ChannelCommandEnvelope<UpdateChannelInput> & CommandMetaCarrier) {
    return this.commands.execute(new ChangeChannel(orgId, id!, { kind: 'update', input }, { actor: commandActor(command), deadline: command?.deadline }));
  }

  @MessagePattern(COMMANDS.channelDelete)
  delete(@Payload() { orgId, id, command }: ChannelCommandEnvelope & CommandMetaCarrier) {
    return this.commands.execute(new ChangeChannel(orgId, id!, { kind: 'delete' }, { actor: commandActor(command), deadline: command?.deadline }));
  }

  @MessagePattern(COMMANDS.channelTest)
  test(@Payload() request: ChannelCommandEnvelope) {
    return this.commands.execute(new TestChannel(request));
  }
}
