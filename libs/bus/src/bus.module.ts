import {
  DynamicModule,
  Inject,
  Injectable,
  INestApplication,
  INestMicroservice,
  Module,
  OnApplicationShutdown,
  OnModuleInit,
  Provider,
} from '@nestjs/common';
import { ClientKafka, ClientProxy, MicroserviceOptions, NestMicroservice } from '@nestjs/microservices';
import { TransportBus } from './bus';
import { Bus, BUS, BusConfig, REPLICA_EVENTS } from './bus.port';
import { InProcessBroker } from './in-process/in-process.broker';
import { InProcessClient } from './in-process/in-process.client';
import { InProcessServer } from './in-process/in-process.server';
import { connectKafkaClient, createKafkaClient, kafkaServerOptions, kafkaWire } from './kafka/kafka-options';
import { KafkaDeadLetters } from './kafka/kafka-dead-letters';
import { KafkaReplicaEvents } from './kafka/kafka-replica-events';
import { InProcessReplicaEvents } from './replica-events';
import { DEAD_LETTERS } from './dead-letter';
import { BusHandlersInterceptor } from './bus-handlers.interceptor';
import { CommandDeadlineInterceptor } from './command-deadline.interceptor';
import { EventRetryInterceptor } from './event-retry.interceptor';
import { BusClosing } from './bus-closing';
import { RpcErrorFilter } from './rpc-error.filter';

/** The ClientProxy under the Bus, for the rare code that needs the transport itself. */
export const BUS_CLIENT = Symbol('BusClient');
/** The broker an in-process application's client and server share (in-process configuration only). */
export const IN_PROCESS_BROKER = Symbol('InProcessBroker');
/** The BusConfig given to BusModule.forRoot. */
export const BUS_CONFIG = Symbol('BusConfig');

/**
 * Connects the bus client while the application initializes, so that whatever starts on bootstrap (publishers,
 * projections) finds it ready, and closes it on shutdown, once the application's servers have stopped.
 */
@Injectable()
class BusConnection implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(BUS_CONFIG) private readonly config: BusConfig,
    @Inject(BUS_CLIENT) private readonly client: ClientProxy,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.config.kind === 'kafka') await connectKafkaClient(this.client as ClientKafka, this.config);
    else await this.client.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }
}

@Module({})
export class BusModule {
  /** Provides BUS (and BUS_CLIENT, and IN_PROCESS_BROKER in-process) to the whole application. */
  static forRoot(config: BusConfig): DynamicModule {
    const transport = config.kind === 'kafka' ? kafkaProviders(config) : inProcessProviders(config);
    return {
      module: BusModule,
      global: true,
      providers: [{ provide: BUS_CONFIG, useValue: config }, ...transport, BusConnection, BusClosing],
      exports: [BUS_CONFIG, BusClosing, BUS, BUS_CLIENT, DEAD_LETTERS, REPLICA_EVENTS, ...(config.kind === 'in-process' ? [IN_PROCESS_BROKER] : [])],
    };
  }
}

const inProcessProviders = ({ faults, requestTimeoutMs, broker }: Extract<BusConfig, { kind: 'in-process' }>): Provider[] => [
  // A factory, not a value: an instance per application even when two share one BusModule.forRoot() result.
  { provide: IN_PROCESS_BROKER, useFactory: () => broker ?? new InProcessBroker(faults) },
  { provide: BUS_CLIENT, useFactory: (broker: InProcessBroker) => new InProcessClient(broker), inject: [IN_PROCESS_BROKER] },
  { provide: BUS, useFactory: (client: ClientProxy) => new TransportBus(client, undefined, requestTimeoutMs), inject: [BUS_CLIENT] },
  { provide: DEAD_LETTERS, useExisting: IN_PROCESS_BROKER },
  { provide: REPLICA_EVENTS, useFactory: (broker: InProcessBroker) => new InProcessReplicaEvents(broker), inject: [IN_PROCESS_BROKER] },
];

const kafkaProviders = (config: Extract<BusConfig, { kind: 'kafka' }>): Provider[] => [
  { provide: BUS_CLIENT, useFactory: () => createKafkaClient(config) },
  { provide: BUS, useFactory: (client: ClientProxy) => new TransportBus(client, kafkaWire, config.requestTimeoutMs), inject: [BUS_CLIENT] },
  { provide: DEAD_LETTERS, useValue: new KafkaDeadLetters(config) },
  { provide: REPLICA_EVENTS, useValue: new KafkaReplicaEvents(config) },
];

/**
 * What `connectMicroservice` needs to serve this configuration's handlers. For a standalone
 * `NestFactory.createMicroservice`, also call `useGlobalFilters(new RpcErrorFilter())` on it before `listen()`.
 */
export function busServerStrategy(config: BusConfig, broker?: InProcessBroker): MicroserviceOptions {
  if (config.kind === 'kafka') return kafkaServerOptions(config);
  if (!broker) throw new Error('The in-process bus server needs the application broker (IN_PROCESS_BROKER)');
  return { strategy: new InProcessServer(broker) };
}

/**
 * Connects the server that runs the application's `@MessagePattern` and `@EventPattern` handlers on the bus
 * configured by BusModule.forRoot, with the RpcErrorFilter applied to it (and only to it: HTTP keeps its own
 * filters). Start it with `app.startAllMicroservices()`.
 */
export function connectBusServer(app: INestApplication): INestMicroservice {
  const config = app.get<BusConfig>(BUS_CONFIG);
  const broker = config.kind === 'in-process' ? app.get<InProcessBroker>(IN_PROCESS_BROKER) : undefined;
  // A connected microservice wires its handlers at once and ignores global filters added later; deferred, it wires
  // them when it starts listening, after the filter is in place.
  const server = app.connectMicroservice<MicroserviceOptions>(busServerStrategy(config, broker), {
    deferInitialization: true,
  });
  server.useGlobalFilters(new RpcErrorFilter());
  const events = new EventRetryInterceptor(app.get<Bus>(BUS), app.get(BusClosing).signal);
  server.useGlobalInterceptors(new BusHandlersInterceptor(new CommandDeadlineInterceptor(), events));
  // Deferred, it would also run every provider's lifecycle hooks a second time: the application runs them already.
  (server as NestMicroservice).setIsInitHookCalled(true);
  return server;
}
