import { runService } from '@pss/host';
import { ApiGatewayModule } from './api-gateway.module';

/** Distributed mode: this service alone, on Kafka, EventStoreDB and MongoDB (see docker-compose.yml). */
runService('api-gateway', [ApiGatewayModule]);
