import { commandActor, type CommandMetaCarrier } from '@pss/bus';
import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { COMMANDS, type IssuedToken, type IssueTokenRequest, type RevokeTokenRequest, type TokenListItem } from '@pss/contracts';
import { IssueToken } from './issue-token';
import { RecordTokenUse } from './record-token-use';
import { RevokeToken } from './revoke-token';

@Controller()
export class TokensMessages {
  constructor(private readonly commands: CommandBus) {}

  /** The gateway reports use at most once a minute per token; the decider keeps it at that resolution. */
  @MessagePattern(COMMANDS.tokenRecordUse)
  async recordUse(@Payload() { tokenId, command }: { tokenId: string } & CommandMetaCarrier): Promise<{ ok: true }> {
    await this.commands.execute(new RecordTokenUse(tokenId, { actor: commandActor(command), deadline: command?.deadline }));
    return { ok: true };
  }

  /**
   * The dashboard's: its sender checked that the actor (in the metadata) owns the organization. Its command id
   * makes a redelivery answer the token already issued (without its secret) instead of issuing another.
   */
  @MessagePattern(COMMANDS.tokenIssue)
  issue(@Payload() { orgId, name, scopes, validityDays, command }: IssueTokenRequest & CommandMetaCarrier): Promise<IssuedToken> {
    const context = { actor: commandActor(command), commandId: command?.id, deadline: command?.deadline };
    return this.commands.execute(new IssueToken({ orgId, name, scopes, validityDays }, context));
  }

  @MessagePattern(COMMANDS.tokenRevoke)
  revoke(@Payload() { orgId, prefix, command }: RevokeTokenRequest & CommandMetaCarrier): Promise<TokenListItem> {
    return this.commands.execute(new RevokeToken({ orgId, prefix }, { actor: commandActor(command), deadline: command?.deadline }));
  }
}
