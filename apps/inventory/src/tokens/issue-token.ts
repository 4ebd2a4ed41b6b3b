import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { API_TOKENS, tokenStatus, type ApiTokenDocument } from '@pss/contracts';
import { CLOCK, notFound, uuidv7, type Clock } from '@pss/kernel';
import { AggregateRepository, type CommandContext } from '@pss/platform';
import { organizationDecider, organizationStream } from '../organizations/organization.decider';
import { tokenDecider, tokenStream } from './token.decider';
import { generateToken } from './token-secret';
import { TokenProjection } from './token.projection';
import { tokenListItem, type TokenListItem } from './token-list-item';

export interface IssueTokenInput {
  orgId: string;
  name: string;
  scopes: string[];
  validityDays: number | null;
}

export class IssueToken {
  constructor(
    readonly input: IssueTokenInput,
    readonly context: CommandContext,
  ) {}
}

/** The token itself is in this reply and nowhere else, ever: only its hash is stored. */
export type IssuedToken = TokenListItem & { token: string };

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
