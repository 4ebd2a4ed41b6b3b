import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { COMMANDS, type StoreCommandEnvelope, type VerifyDomainInput } from '@pss/contracts';
import { ChangeStore, type StoreChange, type UpdateStoreInput } from './change-store';
import { CreateStore, type CreateStoreInput } from './create-store';
import type { PageInput } from './store.decider';
import { VerifyStoreDomain } from './verify-domain';

/** Store commands arriving over the bus from the gateway. */
@Controller()
export class StoresMessages {
  constructor(private readonly commands: CommandBus) {}

  @MessagePattern(COMMANDS.storeCreate)
  create(@Payload() envelope: StoreCommandEnvelope<CreateStoreInput>) {
    return this.commands.execute(new CreateStore(envelope));
  }

  @MessagePattern(COMMANDS.storeUpdate)
  update(@Payload() envelope: StoreCommandEnvelope<UpdateStoreInput>) {
    return this.change(envelope, { kind: 'update', input: envelope.input });
  }

  @MessagePattern(COMMANDS.storeSuspend)
  suspend(@Payload() envelope: StoreCommandEnvelope) {
    return this.change(envelope, { kind: 'suspend' });
  }

  @MessagePattern(COMMANDS.storeRotateKey)
  rotateKey(@Payload() envelope: StoreCommandEnvelope) {
    return this.change(envelope, { kind: 'rotate-key' });
  }

  @MessagePattern(COMMANDS.storeAddPages)
  addPages(@Payload() envelope: StoreCommandEnvelope<{ payment_pages: PageInput[] }>) {
    return this.change(envelope, { kind: 'add-pages', pages: envelope.input.payment_pages });
  }

  @MessagePattern(COMMANDS.storeVerifyDomain)
  verifyDomain(@Payload() envelope: StoreCommandEnvelope<VerifyDomainInput>) {
    return this.commands.execute(new VerifyStoreDomain(envelope));
  }

  /** The envelope's command metadata goes along (its deadline bounds the handler's waits). */
  private change(envelope: StoreCommandEnvelope, change: StoreChange) {
    return this.commands.execute(new ChangeStore({ ...envelope, input: change }));
  }
}
