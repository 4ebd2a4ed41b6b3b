import { runService } from '@pss/host';
import { ReportsModule } from './reports.module';

/** Distributed mode: this service alone, on Kafka, EventStoreDB and MongoDB (see docker-compose.yml). */
runService('reports', [ReportsModule]);
