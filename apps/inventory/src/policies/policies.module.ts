import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { RulesModule } from '../rules/rules.module';
import { StoresModule } from '../stores/stores.module';
import { AuthorizationExpiry } from './authorization-expiry';
import { AutomaticDecisionsConsumer } from './automatic-decisions.consumer';
import { DefaultPolicySeeder } from './default-policy-seeder';
import { ChangePolicyHandler } from './policy-commands';
import { PolicyDecisions } from './policy-decisions';
import { PolicyProjection } from './policy.projection';
import { PolicyRuns } from './policy-runs';
import { PromptDecisions } from './prompt-decisions';
import { PoliciesMessages } from './policies.messages';
import { ScriptFactsReader } from './script-facts-reader';

/** Approval policies: the `policies` read model, the defaults, evaluation, simulate and apply, expiry. */
@Module({
  imports: [CqrsModule, RulesModule, StoresModule],
  controllers: [PoliciesMessages, AutomaticDecisionsConsumer],
  providers: [PolicyProjection, DefaultPolicySeeder, ChangePolicyHandler, PolicyDecisions, PolicyRuns, ScriptFactsReader, AuthorizationExpiry, PromptDecisions],
  exports: [PolicyDecisions, PromptDecisions],
})
export class PoliciesModule {}
