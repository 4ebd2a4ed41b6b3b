import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '@pss/kernel';
import { AggregateRepository, type CommandContext } from '@pss/platform';
import { tokenDecider, tokenStream } from './token.decider';

export class RecordTokenUse {
  constructor(
    readonly tokenId: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(RecordTokenUse)
export class RecordTokenUseHandler implements ICommandHandler<RecordTokenUse, void> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ tokenId, context }: RecordTokenUse): Promise<void> {
    await this.aggregates.decide(tokenStream(tokenId), tokenDecider, { type: 'RecordTokenUse', at: this.clock.now() }, context);
  }
}
