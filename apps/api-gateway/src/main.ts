import { runService } from '@pss/host';
import { DashboardModule } from '@pss/dashboard/src/dashboard.module';
import { ApiGatewayModule } from './api-gateway.module';

/** Distributed mode: this service alone, on Kafka, EventStoreDB and MongoDB (see docker-compose.yml), serving the dashboard at /dashboard. */
runService('api-gateway', [ApiGatewayModule, DashboardModule]);
