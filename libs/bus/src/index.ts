export * from './bus.port';
export { TransportBus, type WireFormat } from './bus';
export {
  BUS_CLIENT,
  BUS_CONFIG,
  BusModule,
  busServerStrategy,
  connectBusServer,
  IN_PROCESS_BROKER,
} from './bus.module';
export { RpcErrorFilter } from './rpc-error.filter';
export { isOutage } from './outage';
export { CommandDeadlineInterceptor } from './command-deadline.interceptor';
export {
  CommandIds,
  commandActor,
  commandMetaOf,
  withCommandMeta,
  type CommandMeta,
  type CommandMetaCarrier,
} from './command-meta';
export { InProcessBroker, type InProcessEndpoint } from './in-process/in-process.broker';
export { FaultPlan, InjectedFault, TYPICAL_FAULTS, type BusFaults } from './in-process/bus-faults';
export { DEAD_LETTER_TOPIC, DEAD_LETTERS, EVENT_HANDLER_ATTEMPTS, type DeadLetter, type DeadLetterLog } from './dead-letter';
export { KafkaDeadLetters } from './kafka/kafka-dead-letters';
export { InProcessClient } from './in-process/in-process.client';
export { IN_PROCESS_TRANSPORT, InProcessContext, InProcessServer } from './in-process/in-process.server';
export {
  BUS_TOPIC_PARTITIONS,
  connectKafkaClient,
  createKafkaClient,
  ensureKafkaTopics,
  kafkaClientOptions,
  kafkaServerOptions,
  kafkaWire,
  PARTITIONS_CONSUMED_CONCURRENTLY,
  REPLY_PARTITIONS_TIMEOUT_MS,
  replyTopicOf,
  type KafkaBusConfig,
} from './kafka/kafka-options';
