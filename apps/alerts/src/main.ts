import { runService } from '@pss/host';
import { AlertsModule } from './alerts.module';

/** Distributed mode: this service alone, on Kafka, EventStoreDB and MongoDB (see docker-compose.yml). */
runService('alerts', [AlertsModule]);
