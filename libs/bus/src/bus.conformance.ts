import { randomUUID } from 'node:crypto';
import {
  Controller,
  INestApplication,
  LoggerService,
  LogLevel,
  Module,
  Provider,
  Type,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { DomainError } from '@pss/kernel';
import { eventually } from '@pss/testkit';
import { map, Observable, timer } from 'rxjs';
import { BusModule, connectBusServer } from './bus.module';
import { CommandIds, type CommandMeta, type CommandMetaCarrier } from './command-meta';
import { Bus, BusConfig } from './bus.port';
import { EVENT_HANDLER_ATTEMPTS, type DeadLetterLog } from './dead-letter';
import type { BusFaults } from './in-process/bus-faults';

/**
 * The one test suite every bus transport must pass. A transport's spec boots the suite's handler classes on its
 * transport (`BusFactory`) and calls `busConformance`; the classes are the same for every transport.
 *
 * The bus contract, as Kafka gives it and the in-process transport in fault mode imitates it:
 * - guaranteed: a request gets its handler's reply or, past its timeout, service_unavailable; every event
 *   published reaches every consumer group at least once; a handler that throws is tried again (a bounded number
 *   of times, then its event goes to the dead-letter topic) and does not keep the event from other groups;
 * - not guaranteed: exactly once (a request or an event may be handled twice: handlers are idempotent); that a
 *   request runs while its caller still waits (commands carry a deadline, handlers drop expired ones); any order
 *   between two topics (only one key of one topic keeps its order).
 */

export interface Happened {
  id: string;
  store: string;
}

/** Every event each consumer group handled, shared by all the applications of a run. */
export class EventLog {
  private readonly deliveries: Array<{ group: string; event: Happened }> = [];

  record(group: string, event: Happened): void {
    this.deliveries.push({ group, event });
  }

  /** The groups that received the event, in name order, once per delivery. */
  groupsThatSaw(id: string): string[] {
    return this.deliveriesOf(id).map(delivery => delivery.group).sort();
  }

  eventsSeen(id: string): Happened[] {
    return this.deliveriesOf(id).map(delivery => delivery.event);
  }

  private deliveriesOf(id: string): Array<{ group: string; event: Happened }> {
    return this.deliveries.filter(delivery => delivery.event.id === id);
  }
}

@Controller()
export class ConformanceCommands {
  constructor(private readonly log: EventLog) {}

  @MessagePattern('test.echo')
  echo(@Payload() { command, ...payload }: CommandMetaCarrier): { echoed: unknown; command?: CommandMeta } {
    return { echoed: payload, command };
  }

  @MessagePattern('test.later')
  later(@Payload() payload: { n: number; delayMs: number }): Observable<{ answered: number }> {
    return timer(payload.delayMs).pipe(map(() => ({ answered: payload.n })));
  }

  @MessagePattern('test.nothing')
  acknowledge(): void {
    // A command handler that has nothing to answer.
  }

  @MessagePattern('test.fail')
  fail(): never {
    throw new DomainError('conflict', 'The store already exists', [{ field: 'x', message: 'y' }]);
  }

  @MessagePattern('test.crash')
  crash(): never {
    throw new Error('Connection to the database lost');
  }

  @MessagePattern('test.record')
  record(@Payload() payload: { id: string; delayMs: number }): Observable<void> {
    return timer(payload.delayMs).pipe(map(() => this.log.record('command', { id: payload.id, store: 'command' })));
  }

  /** An event no attempt can handle: it ends on the dead-letter topic. */
  @EventPattern('test.poisoned')
  poisoned(): never {
    throw new Error('Unexpected token in the payload');
  }

  @MessagePattern('test.slow')
  slow(@Payload() payload: { delayMs: number }): Observable<string> {
    // Answers, only too late. One that never answered would pin its Kafka partition and stall the consumer's shutdown.
    return timer(payload.delayMs).pipe(map(() => 'too late'));
  }
}

export const CONFORMANCE_REQUEST_PATTERNS = [
  'test.echo',
  'test.later',
  'test.nothing',
  'test.fail',
  'test.crash',
  'test.slow',
  'test.record',
];

/** A consumer that takes its time, so a transport that does not wait for its handlers shows it. */
@Controller()
export class LedgerConsumer {
  constructor(private readonly log: EventLog) {}

  @EventPattern('test.happened')
  record(@Payload() event: Happened): Observable<void> {
    return timer(20).pipe(map(() => this.log.record('ledger', event)));
  }
}

/** A consumer whose first attempt at every event fails, as one that crashed mid-handling would. */
@Controller()
export class FlakyConsumer {
  private readonly tried = new Set<string>();

  constructor(private readonly log: EventLog) {}

  @EventPattern('test.happened')
  record(@Payload() event: Happened): void {
    if (!this.tried.has(event.id)) {
      this.tried.add(event.id);
      throw new Error('Crashed before committing');
    }
    this.log.record('flaky', event);
  }
}

/** MongoDB's error when no server can be selected (an election, a restart), as a handler meets it. */
class MongoServerSelectionError extends Error {
  override readonly name = 'MongoServerSelectionError';
}

/** A consumer whose store is out of reach for `outageMs` from the event's first attempt: longer than any bounded retry. */
@Controller()
export class OutageConsumer {
  private readonly firstTried = new Map<string, number>();

  constructor(private readonly log: EventLog) {}

  @EventPattern('test.during-outage')
  record(@Payload() event: Happened & { outageMs: number }): void {
    const first = this.firstTried.get(event.id) ?? Date.now();
    this.firstTried.set(event.id, first);
    if (Date.now() - first < event.outageMs) throw new MongoServerSelectionError('Server selection timed out after 3000 ms');
    this.log.record('outage', event);
  }
}

@Controller()
export class AuditConsumer {
  constructor(private readonly log: EventLog) {}

  @EventPattern('test.happened')
  record(@Payload() event: Happened): void {
    this.log.record('audit', event);
  }
}

/**
 * The handlers a transport boots for the suite. On Kafka a consumer group is a Nest microservice with its own group
 * id, so each entry of `consumerGroups` runs in an application of its own; in-process, every event handler is a
 * consumer group, so they may all share one application.
 */
export interface ConformanceHandlers {
  commands: Type<unknown>;
  consumerGroups: Record<string, Type<unknown>>;
  /** Provide it in every application: the consumers record into it and the suite reads it. */
  eventLog: Provider;
}

export interface BusUnderTest {
  bus: Bus;
  /** What operators list: the dead-letter topic (DEAD_LETTERS of the application). */
  deadLetters: DeadLetterLog;
  close(): Promise<void>;
}

export type BusFactory = (handlers: ConformanceHandlers) => Promise<BusUnderTest>;

export interface ConformanceOptions {
  /** How long a delivery may take on this transport (Kafka is slow right after a consumer group joins). */
  patienceMs?: number;
}

export function busConformance(name: string, boot: BusFactory, options: ConformanceOptions = {}): void {
  const patienceMs = options.patienceMs ?? 2_000;
  const testTimeoutMs = 2 * patienceMs + 5_000;

  describe(`Bus conformance: ${name}`, () => {
    const eventLog = new EventLog();
    let subject: BusUnderTest | undefined;
    const bus = (): Bus => {
      if (!subject) throw new Error('The bus under test did not start');
      return subject.bus;
    };
    const patiently = { timeoutMs: patienceMs };

    beforeAll(async () => {
      subject = await boot({
        commands: ConformanceCommands,
        consumerGroups: { ledger: LedgerConsumer, audit: AuditConsumer, flaky: FlakyConsumer, outage: OutageConsumer },
        eventLog: { provide: EventLog, useValue: eventLog },
      });
    }, 4 * testTimeoutMs);

    afterAll(async () => {
      await subject?.close();
    }, testTimeoutMs);

    it('answers a request with the reply of its handler', async () => {
      const payload = { store: 'shop.example', nested: { list: [1, 'two', null] } };

      await expect(bus().request<{ echoed: unknown }>('test.echo', payload, patiently).then(reply => reply.echoed)).resolves.toEqual(payload);
    }, testTimeoutMs);

    it('gives every request a command id and the deadline its caller waits until', async () => {
      const sent = Date.now();

      // The handler gets both in its payload: it passes the deadline on, so what it waits for ends before its caller gives up.
      const { command } = await bus().request<{ command: CommandMeta }>('test.echo', {}, patiently);

      expect(command.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Date.parse(command.deadline)).toBeGreaterThanOrEqual(sent + patienceMs);
      expect(Date.parse(command.deadline)).toBeLessThanOrEqual(Date.now() + patienceMs);
    }, testTimeoutMs);

    it("sends the ids of the request's CommandIds: a retry of the request sends the same ones", async () => {
      const idsOf = async (ids: CommandIds) => {
        const sent: string[] = [];
        for (let n = 0; n < 2; n += 1) sent.push((await bus().request<{ command: CommandMeta }>('test.echo', {}, { ...patiently, commandIds: ids })).command.id);
        return sent;
      };

      const first = await idsOf(new CommandIds('request-1'));

      expect(new Set(first).size).toBe(2);
      await expect(idsOf(new CommandIds('request-1'))).resolves.toEqual(first);
      expect(await idsOf(new CommandIds('request-2'))).not.toContain(first[0]);
    }, testTimeoutMs);

    it('carries a payload shaped like a transport message untouched', async () => {
      const payload = { key: 'k-1', value: 42, headers: { trace: 't-1' } };

      await expect(bus().request<{ echoed: unknown }>('test.echo', payload, patiently).then(reply => reply.echoed)).resolves.toEqual(payload);
    }, testTimeoutMs);

    it('answers with what an Observable returned by the handler emits', async () => {
      await expect(bus().request('test.later', { n: 7, delayMs: 5 }, patiently)).resolves.toEqual({ answered: 7 });
    }, testTimeoutMs);

    it('answers null for a handler that returns nothing', async () => {
      await expect(bus().request('test.nothing', {}, patiently)).resolves.toBeNull();
    }, testTimeoutMs);

    it("rejects with the handler's DomainError: its code, message and details", async () => {
      const failure = await bus().request('test.fail', {}, patiently).catch((error: unknown) => error);

      expect(failure).toBeInstanceOf(DomainError);
      expect(failure).toMatchObject({
        code: 'conflict',
        message: 'The store already exists',
        details: [{ field: 'x', message: 'y' }],
      });
    }, testTimeoutMs);

    it('rejects with internal_error for any other failure, keeping its message on the server', async () => {
      const failure = await bus().request('test.crash', {}, patiently).catch((error: unknown) => error);

      expect(failure).toBeInstanceOf(DomainError);
      expect(failure).toMatchObject({ code: 'internal_error', message: 'Internal error', details: undefined });
    }, testTimeoutMs);

    it('rejects with service_unavailable when no answer comes in time', async () => {
      const failure = await bus()
        .request('test.slow', { delayMs: 1_000 }, { timeoutMs: 50 })
        .catch((error: unknown) => error);

      expect(failure).toBeInstanceOf(DomainError);
      expect(failure).toMatchObject({ code: 'service_unavailable', message: 'The service did not answer in time' });
    }, testTimeoutMs);

    it('answers concurrent requests each with its own reply, whatever order they finish in', async () => {
      const requests = Array.from({ length: 10 }, (_, n) => ({ n, delayMs: (10 - n) * 5 }));

      const replies = await Promise.all(requests.map(request => bus().request('test.later', request, patiently)));

      expect(replies).toEqual(requests.map(({ n }) => ({ answered: n })));
    }, testTimeoutMs);

    it('delivers an event to every consumer group at least once, with its payload, a failing handler tried again', async () => {
      const event: Happened = { id: randomUUID(), store: 'shop.example' };
      const groups = (): string[] => [...new Set(eventLog.groupsThatSaw(event.id))];

      await bus().publish('test.happened', event, { key: event.store });

      await eventually(groups, (seen) => seen.length === 3, { timeoutMs: patienceMs });
      expect(groups()).toEqual(['audit', 'flaky', 'ledger']);
      expect(new Set(eventLog.eventsSeen(event.id).map(seen => JSON.stringify(seen)))).toEqual(new Set([JSON.stringify(event)]));
    }, testTimeoutMs);

    it('may run a request after its caller gave up waiting', async () => {
      const id = randomUUID();

      const failure = await bus().request('test.record', { id, delayMs: 300 }, { timeoutMs: 100 }).catch((error: unknown) => error);

      expect(failure).toMatchObject({ code: 'service_unavailable' });
      await eventually(() => eventLog.groupsThatSaw(id), (groups) => groups.length > 0, { timeoutMs: patienceMs });
      expect(new Set(eventLog.groupsThatSaw(id))).toEqual(new Set(['command']));
    }, testTimeoutMs);

    it('dead-letters an event whose handler fails every attempt, and lists it for operators', async () => {
      const id = randomUUID();

      await bus().publish('test.poisoned', { id }, { key: 'shop.example' });

      const letters = await eventually(
        () => subject!.deadLetters.list(),
        (listed) => listed.some((letter) => (letter.event as { id?: string }).id === id),
        { timeoutMs: patienceMs + 5_000 },
      );
      expect(letters.find((letter) => (letter.event as { id?: string }).id === id)).toMatchObject({
        topic: 'test.poisoned',
        error: 'Unexpected token in the payload',
        attempts: EVENT_HANDLER_ATTEMPTS,
      });
    }, testTimeoutMs + 5_000);

    // A MongoDB election or an EventStoreDB restart lasts longer than the bounded retries: dead-lettering the event
    // then (and committing its offset) lost its effect for good (review D2).
    it('retries an event through an outage of its store for as long as it lasts, and dead-letters nothing', async () => {
      const id = randomUUID();
      const outageMs = 2_500;

      await bus().publish('test.during-outage', { id, store: 'shop.example', outageMs }, { key: 'shop.example' });

      await eventually(() => eventLog.groupsThatSaw(id), (groups) => groups.length > 0, { timeoutMs: patienceMs + outageMs + 5_000 });
      expect(eventLog.groupsThatSaw(id)).toEqual(['outage']);
      const letters = await subject!.deadLetters.list();
      expect(letters.filter((letter) => (letter.event as { id?: string }).id === id)).toEqual([]);
    }, testTimeoutMs + 10_000);

    it('resolves a publish that no consumer group listens to', async () => {
      await expect(bus().publish('test.unheard', { id: 'unheard' })).resolves.toBeUndefined();
    }, testTimeoutMs);
  });
}

export interface BusAppParts {
  controllers: Array<Type<unknown>>;
  providers: Provider[];
  logger: LoggerService | LogLevel[] | false;
}

@Module({})
class BusTestApp {}

/** Boots an application the way a service does: bus module, bus server connected, started. */
export async function bootBusApp(config: BusConfig, parts: BusAppParts): Promise<INestApplication> {
  const app = await NestFactory.create(
    {
      module: BusTestApp,
      imports: [BusModule.forRoot(config)],
      controllers: parts.controllers,
      providers: parts.providers,
    },
    new FastifyAdapter(),
    { logger: parts.logger, abortOnError: false },
  );
  try {
    connectBusServer(app);
    // In production's order (libs/host service-app): initialized first, then consuming.
    await app.init();
    await app.startAllMicroservices();
    return app;
  } catch (failure) {
    await app.close();
    throw failure;
  }
}

/**
 * An in-process bus app whose only fault is one of Kafka's broker limits (no duplicates, delays or failed handlers),
 * so a spec sees that limit's effect alone; it logs nothing, as the limit's refusals are what the spec expects.
 * Booted before the enclosing describe's tests and closed after them; `app()` once booted.
 */
export function busWithBrokerLimit(
  limit: Pick<BusFaults, 'maxMessageBytes' | 'sessionTimeoutMs'>,
  requestTimeoutMs: number,
  controllers: Array<Type<unknown>>,
): { app(): INestApplication } {
  const faults: BusFaults = { duplicateRate: 0, maxDelayMs: 0, handlerFailureRate: 0, ...limit };
  let app: INestApplication | undefined;
  beforeAll(async () => {
    app = await bootBusApp({ kind: 'in-process', requestTimeoutMs, faults }, { controllers, providers: [], logger: false });
  });
  afterAll(() => app?.close());
  return { app: () => app! };
}
