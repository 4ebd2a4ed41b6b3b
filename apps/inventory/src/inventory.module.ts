import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { AdminOps } from './admin/admin.ops';
import { InventoryIntegrationEvents } from './inventory.integration-events';
import { CreateOrganizationHandler } from './organizations/create-organization';
import { OrganizationProjection } from './organizations/organization.projection';
import { IssueTokenHandler } from './tokens/issue-token';
import { RecordTokenUseHandler } from './tokens/record-token-use';
import { RevokeTokenHandler } from './tokens/revoke-token';
import { TokenProjection } from './tokens/token.projection';
import { TokensMessages } from './tokens/tokens.messages';

/** Organizations, API tokens, stores, scripts, rules, policies and SDK ingestion. */
@Module({
  imports: [CqrsModule],
  controllers: [TokensMessages],
  providers: [
    OrganizationProjection,
    CreateOrganizationHandler,
    TokenProjection,
    IssueTokenHandler,
    RevokeTokenHandler,
    RecordTokenUseHandler,
    AdminOps,
    InventoryIntegrationEvents,
  ],
})
export class InventoryModule {}
