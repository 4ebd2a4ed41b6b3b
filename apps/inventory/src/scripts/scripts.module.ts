import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { DeployedCspProjection } from '../ingestion/deployed-csp.projection';
import { SdkIngestion } from '../ingestion/sdk-ingestion.service';
import { StoreActivityProjection } from '../ingestion/store-activity.projection';
import { PoliciesModule } from '../policies/policies.module';
import { RulesModule } from '../rules/rules.module';
import { PageHistoryMessages } from './page-history.messages';
import { DecideOnScriptHandler } from './script-decisions';
import { ScriptHistoryProjection } from './script-history.projection';
import { ScriptProjection } from './script.projection';
import { ScriptsMessages } from './scripts.messages';

/** The script inventory: SDK ingestion, classification, integrity, and people's decisions on scripts. */
@Module({
  imports: [CqrsModule, RulesModule, PoliciesModule],
  controllers: [ScriptsMessages, PageHistoryMessages],
  providers: [ScriptProjection, ScriptHistoryProjection, StoreActivityProjection, DeployedCspProjection, SdkIngestion, DecideOnScriptHandler],
})
export class ScriptsModule {}
