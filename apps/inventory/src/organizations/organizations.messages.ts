import { commandActor, type CommandMetaCarrier } from '@pss/bus';
import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { COMMANDS, type CreatedOrganization, type CreateOrganizationRequest } from '@pss/contracts';
import { CreateOrganization } from './create-organization';

@Controller()
export class OrganizationsMessages {
  constructor(private readonly commands: CommandBus) {}

  /** POST /organizations: the gateway has validated the body and names the caller's organization as parent. */
  @MessagePattern(COMMANDS.organizationCreate)
  create(@Payload() request: CreateOrganizationRequest & CommandMetaCarrier): Promise<CreatedOrganization> {
    const { command, ...input } = request;
    return this.commands.execute(new CreateOrganization(input, { actor: commandActor(command), commandId: command?.id, deadline: command?.deadline }));
  }
}
