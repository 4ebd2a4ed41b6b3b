import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { StoresModule } from '../stores/stores.module';
import { BlockRules } from './block-rules';
import { ChangeRuleHandler } from './change-rule';
import { CreateRuleHandler } from './create-rule';
import { RuleProjection } from './rule.projection';
import { RulesMessages } from './rules.messages';

/** Block and allow rules of a store: the `rule-` streams, the `rules` read model, and BlockRules for scripts. */
@Module({
  imports: [CqrsModule, StoresModule],
  controllers: [RulesMessages],
  providers: [RuleProjection, CreateRuleHandler, ChangeRuleHandler, BlockRules],
  exports: [BlockRules],
})
export class RulesModule {}
