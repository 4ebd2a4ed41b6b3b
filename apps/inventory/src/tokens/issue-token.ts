import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { API_TOKENS, tokenListItem, tokenStatus, type ApiTokenDocument, type IssuedToken, type IssueTokenRequest } from '@pss/contracts';
import { CLOCK, deterministicUuid, notFound, uuidv7, type Clock } from '@pss/kernel';
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
    // One stream per bus command: a redelivery meets the first delivery's token there (or loses the race to write it).
    const tokenId = context.commandId ? deterministicUuid('token', context.commandId) : uuidv7(at.getTime());
    const { token, prefix, hash } = generateToken();
    const { events } = await this.aggregates.decide(
      tokenStream(tokenId),
      tokenDecider,
      { type: 'IssueToken', tokenId, orgId: input.orgId, name: input.name, scopes: input.scopes, validityDays: input.validityDays, prefix, hash, at, commandId: context.commandId },
      { ...context, orgId: input.orgId },
    );
    const redelivered = events.length === 0;
    // A redelivery waits for the read models as the first delivery does, so the first delivery's answer, the one
    // with the secret, is the likelier to reach the caller first.
    if (redelivered) await this.aggregates.createdEarlier(tokenStream(tokenId), tokenDecider, (state) => state.status !== 'none', context);
    // As the write left it, whether or not the read model has it yet.
    const issued = await this.aggregates.written<ApiTokenDocument>(tokenStream(tokenId), this.tokens, API_TOKENS, tokenId);
    // Only the delivery that wrote the hash knows the secret; the candidate drawn by a redelivery was never stored.
    return { token: redelivered ? null : token, ...tokenListItem(issued!, tokenStatus(issued!, at)) };
  }
}
