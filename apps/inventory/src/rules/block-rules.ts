import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { CommandContext } from '@pss/platform';
import { CreateRule } from './create-rule';
import type { RuleResource } from './rule-resource';

export interface BlockRuleInput {
  orgId: string;
  storeId: string;
  target: 'domain' | 'hash' | 'url';
  value: string;
  label?: string;
}

/** What blocking a script does to rules (spec: "a block rule is created or updated"), for other features to call. */
@Injectable()
export class BlockRules {
  constructor(private readonly commands: CommandBus) {}

  /**
   * The store's block rule for this target and value, created, or re-activated (and relabelled when a label is
   * given) if it exists: blocking the same thing twice leaves one rule. Answers once the `rules` read model has it.
   */
  ensureBlock(input: BlockRuleInput, context: CommandContext): Promise<RuleResource> {
    const { orgId, storeId, target, value, label } = input;
    return this.commands.execute(new CreateRule({ orgId, storeId, type: 'block', target, value, label }, context, 'reactivate'));
  }
}
