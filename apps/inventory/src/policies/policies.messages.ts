import { commandActor, type CommandMetaCarrier } from '@pss/bus';
import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { COMMANDS, type InventoryCommandEnvelope, type PolicyInput } from '@pss/contracts';
import { ChangePolicy, type PolicyChange } from './policy-commands';
import { PolicyRuns } from './policy-runs';

/** Policy commands arriving over the bus from the gateway. */
@Controller()
export class PoliciesMessages {
  constructor(
    private readonly commands: CommandBus,
    private readonly runs: PolicyRuns,
  ) {}

  @MessagePattern(COMMANDS.policyCreate)
  create(@Payload() envelope: InventoryCommandEnvelope<PolicyInput>) {
    return this.change(envelope, { kind: 'create', input: envelope.input });
  }

  @MessagePattern(COMMANDS.policyUpdate)
  update(@Payload() envelope: InventoryCommandEnvelope<PolicyInput>) {
    return this.change(envelope, { kind: 'update', input: envelope.input });
  }

  @MessagePattern(COMMANDS.policyDelete)
  delete(@Payload() envelope: InventoryCommandEnvelope) {
    return this.change(envelope, { kind: 'delete' });
  }

  @MessagePattern(COMMANDS.policySimulate)
  simulate(@Payload() { orgId, id, input, command }: InventoryCommandEnvelope<{ store_id?: string }> & CommandMetaCarrier) {
    return this.runs.simulate({ orgId, actor: commandActor(command), policyId: id!, storeId: input.store_id, deadline: command?.deadline });
  }

  @MessagePattern(COMMANDS.policyApply)
  apply(@Payload() { orgId, id, input, command }: InventoryCommandEnvelope<{ store_id?: string }> & CommandMetaCarrier) {
    return this.runs.apply({ orgId, actor: commandActor(command), policyId: id!, storeId: input.store_id, deadline: command?.deadline });
  }

  private change(envelope: InventoryCommandEnvelope, change: PolicyChange) {
    return this.commands.execute(new ChangePolicy({ ...envelope, input: change }));
  }
}
