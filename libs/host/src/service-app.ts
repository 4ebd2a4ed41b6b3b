import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { connectBusServer, type BusConfig, type BusFaults, type InProcessBroker } from '@pss/bus';
import { COMMAND_PATTERNS } from '@pss/contracts';
import type { ServiceConfig } from '@pss/config';
import type { Clock } from '@pss/kernel';
import { OpsModule } from '@pss/ops';
import { jsonLogger, PlatformModule, type PlatformModuleOptions } from '@pss/platform';
import { Metrics } from '@pss/metrics';
import { DeadLettersOps } from './dead-letters.ops';
import { answerWrongMethods, clientErrorHandler, frameworkErrors, MAX_PATH_PARAMETER_LENGTH } from './http-errors';
import { parseJsonBodies } from './json-body';
import { assignRequestIds, observeRequests } from './request-observability';

/** Request bodies are capped; routes that need less (SDK ingestion) set their own cap. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** How long a client may take to send a request; past it Node's parser raises the 408 `request_timeout`. */
export interface RequestTimeouts {
  /** From the first byte of a request to the end of its headers. */
  headersMs: number;
  /** From the first byte of a request to the end of its body. */
  requestMs: number;
  /** How often Node looks for requests past either: one can outlive its timeout by up to this much. */
  checkEveryMs: number;
}

/**
 * Without these a client trickling a byte every few seconds held its connection, and a few thousand such clients
 * held the process (slowloris): Fastify turns Node's request timeout off. 30 s brings the largest body, 1 MiB,
 * at 35 KB/s, and an SDK batch (at most 256 KiB) at under 9 KB/s; headers are a few KiB and get 10 s. Node
 * checks every second rather than its 30 s, which let a request live up to twice its timeout. The time a route
 * takes to answer is not counted: the clock stops when the request has arrived.
 */
export const REQUEST_TIMEOUTS: RequestTimeouts = { headersMs: 10_000, requestMs: 30_000, checkEveryMs: 1_000 };

export interface ServiceAppOptions {
  /** Names the process in logs, and its Kafka client and consumer group. */
  name: string;
  modules: Array<Type<unknown> | DynamicModule>;
  config: ServiceConfig;
  clock?: Clock;
  /** false when a CLI boots the service's code for one call: no publishers, no scheduled jobs, no ops socket. */
  background?: boolean;
  /** Embedded mode only: the in-process bus delivers twice, late and out of order, as Kafka may (fault-mode tests). */
  busFaults?: BusFaults;
  /** REQUEST_TIMEOUTS unless a test shortens them. */
  requestTimeouts?: RequestTimeouts;
  /**
   * Tests only: engines several applications share, as replicas share EventStoreDB, MongoDB and Kafka (embedded
   * mode; apps/embedded/src/testing/shared-engines.ts). Production opens its own from the configuration.
   */
  engines?: SharedEngineConnections;
}

/** One replica's connections to engines shared with other replicas (tests): the stores and the in-process broker. */
export interface SharedEngineConnections {
  adapters: PlatformModuleOptions['adapters'];
  broker: InProcessBroker;
}

/**
 * The processes that send commands (request/reply); the services answer them and talk to each other by events
 * only. The others subscribe to no reply topic: five consumer groups each reading every reply topic, for replies
 * addressed to the gateway, was load on Kafka and on them for nothing. ClientKafka refuses at once a request whose
 * reply topic is not subscribed, so a service that starts sending commands finds out on its first one.
 */
const COMMAND_SENDERS = ['api-gateway'];

/** The bus of one process: in-process in embedded mode; on Kafka, reply topics for the command senders only. */
export function busConfigOf({ name, config, busFaults, engines }: Pick<ServiceAppOptions, 'name' | 'config' | 'busFaults' | 'engines'>): BusConfig {
  if (config.mode === 'embedded') return { kind: 'in-process', requestTimeoutMs: config.requestTimeoutMs, faults: busFaults, broker: engines?.broker };
  return {
    kind: 'kafka',
    brokers: config.kafkaBrokers,
    clientId: name,
    requestPatterns: COMMAND_SENDERS.includes(name) ? COMMAND_PATTERNS : [],
    commandPatterns: COMMAND_PATTERNS,
    requestTimeoutMs: config.requestTimeoutMs,
  };
}

@Module({ providers: [DeadLettersOps] })
class ServiceRootModule {}

/**
 * Creates one process of the service, initialized but not listening: the embedded process with all five
 * modules on the in-process bus, or one distributed service on Kafka. `main.ts` listens, tests inject.
 */
export async function createServiceApp(options: ServiceAppOptions): Promise<NestFastifyApplication> {
  const { config } = options;
  const bus = busConfigOf(options);
  const root: DynamicModule = {
    module: ServiceRootModule,
    imports: [
      PlatformModule.forRoot({ config, bus, clock: options.clock, background: options.background, adapters: options.engines?.adapters }),
      OpsModule,
      ...options.modules,
    ],
  };
  const logger = jsonLogger(config, options.name);
  const timeouts = options.requestTimeouts ?? REQUEST_TIMEOUTS;
  const app = await NestFactory.create<NestFastifyApplication>(
    root,
    new FastifyAdapter({
      bodyLimit: BODY_LIMIT_BYTES,
      // Which peers may say who the client is (X-Forwarded-For): none unless TRUST_PROXY names them, so that
      // `request.ip` cannot be chosen by the client.
      trustProxy: config.trustProxy,
      requestTimeout: timeouts.requestMs,
      http: { headersTimeout: timeouts.headersMs, connectionsCheckingInterval: timeouts.checkEveryMs },
      // What Fastify and Node's HTTP parser refuse before a route runs, in the service's error shape.
      frameworkErrors,
      clientErrorHandler,
      routerOptions: { maxParamLength: MAX_PATH_PARAMETER_LENGTH },
      // No service uses Nest middleware: middie's onRequest hook ran on every request for nothing (2 % of a
      // GET /stores). A module that adds middleware fails at init (the adapter has no `use`) instead of being skipped.
      skipMiddie: true,
    }),
    // Nest's own JSON parser is replaced by parseJsonBodies (depth, prototype keys and Unicode checked).
    { logger, bufferLogs: true, abortOnError: false, bodyParser: false },
  );
  parseJsonBodies(app.getHttpAdapter().getInstance());
  assignRequestIds(app.getHttpAdapter().getInstance());
  answerWrongMethods(app.getHttpAdapter().getInstance());
  observeRequests(app.getHttpAdapter().getInstance(), logger, app.get(Metrics), config);
  connectBusServer(app);
  // Read models registered and caught up first, then commands consumed: a command served before its projections
  // exist would answer 404 for its own write (and the idempotency store would replay that 404 for 24 h).
  await app.init();
  await app.startAllMicroservices();
  return app;
}
