import { commandActor, type CommandMetaCarrier } from '@pss/bus';
import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { COMMANDS, type CreateRuleInput, type InventoryCommandEnvelope, type RuleChanges } from '@pss/contracts';
import { ChangeRule } from './change-rule';
import { CreateRule } from './create-rule';

/** Rule commands arriving over the bus from the gateway. */
@Controller()
export class RulesMessages {
  constructor(private readonly commands: CommandBus) {}

  @MessagePattern(COMMANDS.ruleCreate)
  create(@Payload() { orgId, input, command }: InventoryCommandEnvelope<CreateRuleInput> & CommandMetaCarrier) {
    const { store_id, type, target, value, label } = input;
    const context = { actor: commandActor(command), commandId: command?.id, deadline: command?.deadline };
    return this.commands.execute(new CreateRule({ orgId, storeId: store_id, type, target, value, label }, context, 'conflict'));
  }

  @MessagePattern(COMMANDS.ruleUpdate)
  update(@Payload() { orgId, id, input, command }: InventoryCommandEnvelope<RuleChanges> & CommandMetaCarrier) {
    return this.commands.execute(new ChangeRule(orgId, id!, { kind: 'update', label: input.label, active: input.active }, { actor: commandActor(command), deadline: command?.deadline }));
  }

  @MessagePattern(COMMANDS.ruleDelete)
  delete(@Payload() { orgId, id, command }: InventoryCommandEnvelope & CommandMetaCarrier) {
    return this.commands.execute(new ChangeRule(orgId, id!, { kind: 'delete' }, { actor: commandActor(command), deadline: command?.deadline }));
  }
}
