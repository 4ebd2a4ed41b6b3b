import type { CommandIds } from './command-meta';
import type { BusFaults } from './in-process/bus-faults';
import type { InProcessBroker } from './in-process/in-process.broker';

/**
 * The bus port: commands as request/reply, integration events as fan-out to every consumer group.
 *
 * Handlers are ordinary NestJS `@MessagePattern` (commands) and `@EventPattern` (events) methods. Which transport
 * carries them is configuration: the in-process transport (a NestJS custom transport strategy and client proxy)
 * in embedded mode, Kafka through `@nestjs/microservices` in distributed mode. Application code talks to `Bus`,
 * never to a ClientProxy, so timeouts and error mapping are the same everywhere.
 */
export interface Bus {
  /**
   * Sends a command and resolves with the handler's reply. A handler's DomainError comes back as a DomainError
   * with the same code; no reply within the timeout is a DomainError `service_unavailable`. The command's id is
   * the next of `commandIds` when given (a request retried with its Idempotency-Key), random otherwise.
   */
  request<Reply = unknown>(pattern: string, payload: unknown, options?: RequestOptions): Promise<Reply>;
  /** Publishes an event to every consumer group subscribed to `topic`; resolves once the transport accepted it. */
  publish(topic: string, payload: unknown, options?: { key?: string }): Promise<void>;
}

export interface RequestOptions {
  timeoutMs?: number;
  commandIds?: CommandIds;
  /** Who acts (`user:<e-mail>`, `api:<token prefix>`…): rides in the command's metadata (command-meta.ts). */
  actor?: string;
  /**
   * The Kafka message key: commands of one key land on one partition of the command topic, so one replica of the
   * service handles them all (the one that keeps that key's caches and budgets in memory), until a rebalance.
   */
  key?: string;
}

export const BUS = Symbol('Bus');

/**
 * Events every replica of a service must see, not one of them: what each keeps in memory and must drop when the
 * fact says so (a gateway's built `sdk.js` per store). Each process reads in a consumer group of its own, from
 * the newest message on: what was published before it started is already in what it reads from the read models.
 */
export interface ReplicaEvents {
  /** Calls `handler` with each event of `topics` this process sees from now on; resolves with how to stop. */
  subscribe(topics: readonly string[], handler: (topic: string, payload: unknown) => void): Promise<() => Promise<void>>;
}

export const REPLICA_EVENTS = Symbol('ReplicaEvents');

export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

interface BusSettings {
  /** BUS_REQUEST_TIMEOUT_MS: how long a command waits for its reply unless its caller says otherwise. */
  requestTimeoutMs?: number;
}

export type BusConfig =
  /** `faults` makes the in-process transport deliver as Kafka may: twice, late, out of order (tests). */
  /** `broker`: one a test shares between several applications (replicas on one bus); a broker of its own otherwise. */
  | (BusSettings & { kind: 'in-process'; faults?: BusFaults; broker?: InProcessBroker })
  | (BusSettings & {
      kind: 'kafka';
      brokers: string[];
      /** Names this service: the Kafka client id and, suffixed, its consumer group. */
      clientId: string;
      /** Command patterns this process sends, so their reply topics are subscribed before connecting. */
      requestPatterns: string[];
      /**
       * Every command pattern of the system: each process creates their topics and reply topics, with
       * BUS_TOPIC_PARTITIONS partitions, before it consumes, so the partition counts do not depend on who starts first.
       */
      commandPatterns?: string[];
    });
