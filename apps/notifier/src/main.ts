import { runService } from '@pss/host';
import { NotifierModule } from './notifier.module';

/** Distributed mode: this service alone, on Kafka, EventStoreDB and MongoDB (see docker-compose.yml). */
runService('notifier', [NotifierModule]);
