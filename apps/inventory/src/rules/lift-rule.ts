import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '@pss/kernel';
import { AggregateRepository, type CommandContext } from '@pss/platform';
import { ruleDecider } from './rule.decider';
import { ruleStream } from './rule.events';
import { ruleId, type RuleKey } from './rule-key';

/** A decision on a script takes a rule out of its way: deactivated if it exists and acts, else nothing. */
export class LiftRule extends Command<void> {
  constructor(
    readonly orgId: string,
    readonly key: RuleKey,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(LiftRule)
export class LiftRuleHandler implements ICommandHandler<LiftRule> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ orgId, key, context }: LiftRule): Promise<void> {
    await this.aggregates.decide(ruleStream(ruleId(key)), ruleDecider, { type: 'LiftRule', orgId, at: this.clock.now() }, { ...context, orgId });
  }
}
