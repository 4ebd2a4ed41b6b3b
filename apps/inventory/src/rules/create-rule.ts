import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, conflict, type Clock } from '@pss/kernel';
import { AggregateRepository, type CommandContext } from '@pss/platform';
import { StoreAccess } from '../stores/store-access';
import { ruleDecider, type RuleRequest } from './rule.decider';
import { ruleStream } from './rule.events';
import { ruleId, ruleKey } from './rule-key';
import { ruleResource, type RuleResource } from './rule-resource';
import { RuleProjection } from './rule.projection';

/** POST /rules (`conflict` when the rule exists), or blocking a script (`reactivate` the rule that exists). */
export class CreateRule extends Command<RuleResource> {
  constructor(
    readonly rule: RuleRequest,
    readonly context: CommandContext,
    readonly whenExists: 'conflict' | 'reactivate',
  ) {
    super();
  }
}

/** A rule belongs to a store of the caller's organization that can still be changed. */
@CommandHandler(CreateRule)
export class CreateRuleHandler implements ICommandHandler<CreateRule> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly stores: StoreAccess,
    private readonly rules: RuleProjection,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ rule, context, whenExists }: CreateRule): Promise<RuleResource> {
    const store = await this.stores.ownedBy(rule.orgId, rule.storeId);
    if (store.status !== 'active') throw conflict('Store is suspended; it takes no new rules');
    const id = ruleId(ruleKey(rule));
    const scoped = { ...context, orgId: rule.orgId };
    // A redelivery, or the client's retry of a create that timed out, answers the rule it created, not 409.
    const claim = context.commandId ? await this.aggregates.claimCommand(context.commandId, id, scoped) : undefined;
    if (claim?.earlier) return this.createdEarlier(id, scoped);
    const command = { type: whenExists === 'conflict' ? ('CreateRule' as const) : ('EnsureRule' as const), rule, at: this.clock.now() };
    try {
      await this.aggregates.decide(ruleStream(id), ruleDecider, command, scoped);
    } catch (error) {
      // Refused: the claim goes back, so the command decides again if it comes again.
      if (context.commandId) await this.aggregates.releaseCommand(context.commandId, id, scoped);
      throw error;
    }
    return ruleResource(this.aggregates, this.rules, id);
  }

  private async createdEarlier(id: string, context: CommandContext): Promise<RuleResource> {
    await this.aggregates.createdEarlier(ruleStream(id), ruleDecider, (state) => state.rule !== undefined, context);
    return ruleResource(this.aggregates, this.rules, id);
  }
}
