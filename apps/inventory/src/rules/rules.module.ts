import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { StoresModule } from '../stores/stores.module';
import { ChangeRuleHandler } from './change-rule';
import { CreateRuleHandler } from './create-rule';
import { LiftRuleHandler } from './lift-rule';
import { RuleProjection } from './rule.projection';
import { RulesMessages } from './rules.messages';
import { ScriptRules } from './script-rules';

/** Block and allow rules of a store: the `rule-` streams, the `rules` read model, and ScriptRules for decisions on scripts. */
@Module({
  imports: [CqrsModule, StoresModule],
  controllers: [RulesMessages],
  providers: [RuleProjection, CreateRuleHandler, ChangeRuleHandler, LiftRuleHandler, ScriptRules],
  exports: [ScriptRules],
})
export class RulesModule {}
