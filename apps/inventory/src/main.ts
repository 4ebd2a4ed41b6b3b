import { runService } from '@pss/host';
import { InventoryModule } from './inventory.module';

/** Distributed mode: this service alone, on Kafka, EventStoreDB and MongoDB (see docker-compose.yml). */
runService('inventory', [InventoryModule]);
