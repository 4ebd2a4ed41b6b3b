import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { API_TOKENS, tokenListItem, tokenStatus, type ApiTokenDocument, type RevokeTokenRequest, type TokenListItem } from '@pss/contracts';
import { CLOCK, notFound, type Clock } from '@pss/kernel';
import { AggregateRepository, type CommandContext } from '@pss/platform';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { tokenDecider, tokenStream } from './token.decider';

export class RevokeToken {
  constructor(
    readonly input: RevokeTokenRequest,
    readonly context: CommandContext,
  ) {}
}

/** Revocation is immediate: the reply is sent once the gateway's token read model has it. */
@CommandHandler(RevokeToken)
export class RevokeTokenHandler implements ICommandHandler<RevokeToken, TokenListItem> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input, context }: RevokeToken): Promise<TokenListItem> {
    const tokens = this.readStore.collection<ApiTokenDocument>(API_TOKENS);
    const token = await tokens.findOne({ prefix: input.prefix, org_id: input.orgId });
    if (!token) throw notFound('Token');
    const at = this.clock.now();
    await this.aggregates.decide(tokenStream(token._id), tokenDecider, { type: 'RevokeToken', at }, { ...context, orgId: input.orgId });
    const revoked = (await tokens.findOne({ _id: token._id }))!;
    return tokenListItem(revoked, tokenStatus(revoked, at));
  }
}
