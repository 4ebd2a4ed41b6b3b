import { AlertsModule } from '@pss/alerts/src/alerts.module';
import { ApiGatewayModule } from '@pss/api-gateway/src/api-gateway.module';
import { DashboardModule } from '@pss/dashboard/src/dashboard.module';
import { InventoryModule } from '@pss/inventory/src/inventory.module';
import { NotifierModule } from '@pss/notifier/src/notifier.module';
import { ReportsModule } from '@pss/reports/src/reports.module';

/** All five services and the dashboard in one process: with MODE=embedded, on SQLite, the in-process bus and in-memory read models. */
export const EMBEDDED_MODULES = [ApiGatewayModule, InventoryModule, AlertsModule, ReportsModule, NotifierModule, DashboardModule];
