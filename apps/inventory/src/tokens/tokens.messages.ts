import type { CommandMetaCarrier } from '@pss/bus';
import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { COMMANDS } from '@pss/contracts';
import { RecordTokenUse } from './record-token-use';

@Controller()
export class TokensMessages {
  constructor(private readonly commands: CommandBus) {}

  /** The gateway reports use at most once a minute per token; the decider keeps it at that resolution. */
  @MessagePattern(COMMANDS.tokenRecordUse)
  async recordUse(@Payload() { tokenId, actor, command }: { tokenId: string; actor: string } & CommandMetaCarrier): Promise<{ ok: true }> {
    await this.commands.execute(new RecordTokenUse(tokenId, { actor, deadline: command?.deadline }));
    return { ok: true };
  }
}
