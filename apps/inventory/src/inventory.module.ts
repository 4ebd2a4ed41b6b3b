import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { AdminOps } from './admin/admin.ops';
import { InventoryAuditLogProjection } from './audit/inventory-audit-log.projection';
import { ConnectionsModule } from './connections/connections.module';
import { InventoryIntegrationEvents } from './inventory.integration-events';
import { OrganizationsModule } from './organizations/organizations.module';
import { ScriptsModule } from './scripts/scripts.module';
import { StoresModule } from './stores/stores.module';
import { TokensModule } from './tokens/tokens.module';

/** Organizations, API tokens, stores, scripts, rules, policies, connections and SDK ingestion, and their part of the audit log. */
@Module({
  imports: [CqrsModule, OrganizationsModule, TokensModule, StoresModule, ScriptsModule, ConnectionsModule],
  providers: [AdminOps, InventoryIntegrationEvents, InventoryAuditLogProjection],
})
export class InventoryModule {}
