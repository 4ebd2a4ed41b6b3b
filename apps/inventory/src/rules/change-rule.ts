import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '@pss/kernel';
import { AggregateRepository, type CommandContext } from '@pss/platform';
import { ruleDecider, type RuleCommand } from './rule.decider';
import { ruleStream } from './rule.events';
import { ruleResource, type RuleResource } from './rule-resource';
import { RuleProjection } from './rule.projection';

export type RuleChange = { kind: 'update'; label?: string; active?: boolean } | { kind: 'delete' };
export type DeletedRule = { id: string; deleted: true };

export class ChangeRule extends Command<RuleResource | DeletedRule> {
  constructor(
    readonly orgId: string,
    readonly ruleId: string,
    readonly change: RuleChange,
    readonly context: CommandContext,
  ) {
    super();
  }
}

/** PATCH and DELETE /rules: the decider tells another organization's rule from a missing one only by not telling. */
@CommandHandler(ChangeRule)
export class ChangeRuleHandler implements ICommandHandler<ChangeRule> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly rules: RuleProjection,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ orgId, ruleId, change, context }: ChangeRule): Promise<RuleResource | DeletedRule> {
    const at = this.clock.now();
    const command: RuleCommand =
      change.kind === 'update' ? { type: 'UpdateRule', orgId, label: change.label, active: change.active, at } : { type: 'DeleteRule', orgId, at };
    await this.aggregates.decide(ruleStream(ruleId), ruleDecider, command, { ...context, orgId });
    return change.kind === 'update' ? ruleResource(this.aggregates, this.rules, ruleId) : { id: ruleId, deleted: true };
  }
}
