import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { API_TOKENS, tokenListItem, tokenStatus, type ApiTokenDocument, type IssuedToken, type IssueTokenRequest } from '@pss/contracts';
import { CLOCK, notFound, uuidv7, type Clock } from '@pss/kernel';
import { AggregateRepository, type CommandContext } from '@pss/platform';
import { organizationDecider, organizationStream } from '../organizations/organization.decider';
import { tokenDecider, tokenStream } from './token.decider';
import { generateToken } from './token-secret';
import { TokenProjection } from './token.projection';

export class IssueToken {
  constructor(
    readonly input: IssueTokenRequest,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(IssueToken)
export class IssueTokenHandler implements ICommandHandler<IssueToken, IssuedToken> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly tokens: TokenProjection,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input, context }: IssueToken): Promise<IssuedToken> {
    const { state: organization } = await this.aggregates.load(organizationStream(input.orgId), organizationDecider);
    if (!organization.profile) throw notFound('Organization');
    const at = this.clock.now();
    const tokenId = uuidv7(at.getTime());
    const { token, prefix, hash } = generateToken();
    await this.aggregates.decide(
      tokenStream(tokenId),
      tokenDecider,
      { type: 'IssueToken', tokenId, orgId: input.orgId, name: input.name, scopes: input.scopes, validityDays: input.validityDays, prefix, hash, at },
      { ...context, orgId: input.orgId },
    );
    // As the write left it, whether or not the read model has it yet.
    const issued = await this.aggregates.written<ApiTokenDocument>(tokenStream(tokenId), this.tokens, API_TOKENS, tokenId);
    return { token, ...tokenListItem(issued!, tokenStatus(issued!, at)) };
  }
}
