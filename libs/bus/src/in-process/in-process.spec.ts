import { randomUUID } from 'node:crypto';
import { Controller, Injectable, INestApplication, LoggerService, OnModuleInit } from '@nestjs/common';
import { ClientProxy, EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { MongoNetworkError } from 'mongodb';
import { DomainError } from '@pss/kernel';
import { firstValueFrom } from 'rxjs';
import {
  AuditConsumer,
  bootBusApp,
  busConformance,
  ConformanceCommands,
  EventLog,
  LedgerConsumer,
} from '../bus.conformance';
import { BUS_CLIENT, IN_PROCESS_BROKER } from '../bus.module';
import { DEAD_LETTER_TOPIC, DEAD_LETTERS, EVENT_HANDLER_ATTEMPTS, type DeadLetter, type DeadLetterLog } from '../dead-letter';
import { Bus, BUS, BusConfig } from '../bus.port';
import { TYPICAL_FAULTS } from './bus-faults';

/** Keeps what the applications log, so tests can read it and the run's output stays quiet. */
class RecordingLogger implements LoggerService {
  private readonly lines: Array<{ level: string; text: string }> = [];

  readonly log = this.keeper('log');
  readonly error = this.keeper('error');
  readonly warn = this.keeper('warn');
  readonly debug = this.keeper('debug');
  readonly verbose = this.keeper('verbose');
  readonly fatal = this.keeper('fatal');

  /** The errors logged since `mark`. */
  errorsSince(mark: number): string[] {
    return this.lines.slice(mark).filter(line => line.level === 'error').map(line => line.text);
  }

  mark(): number {
    return this.lines.length;
  }

  private keeper(level: string): (...parts: unknown[]) => void {
    return (...parts) => this.lines.push({ level, text: parts.map(String).join(' ') });
  }
}

const logger = new RecordingLogger();
const inProcess: BusConfig = { kind: 'in-process' };

// With faults on: the contract holds even when every message may come twice, late and out of order.
busConformance('in-process with faults', async ({ commands, consumerGroups, eventLog }) => {
  // Every event handler is a consumer group of its own in-process, so one application holds them all.
  const app = await bootBusApp({ kind: 'in-process', faults: TYPICAL_FAULTS }, {
    controllers: [commands, ...Object.values(consumerGroups)],
    providers: [eventLog],
    logger,
  });
  return { bus: app.get<Bus>(BUS), deadLetters: app.get<DeadLetterLog>(DEAD_LETTERS), close: () => app.close() };
});

@Controller()
class FailingConsumer {
  attempts = 0;

  @EventPattern('test.happened')
  fail(): never {
    this.attempts += 1;
    throw new Error('Disk full');
  }
}

/** What an operator's tooling reads: the dead-letter topic. */
@Controller()
class DeadLetters {
  readonly received: DeadLetter[] = [];

  @EventPattern(DEAD_LETTER_TOPIC)
  keep(@Payload() letter: DeadLetter): void {
    this.received.push(letter);
  }
}

@Controller()
class OutageCommands {
  @MessagePattern('test.outage')
  readModels(): never {
    throw new MongoNetworkError('connection 1 to 10.0.0.7:27017 closed');
  }
}

/** Counts how often the application's lifecycle hooks ran. */
@Injectable()
class LifecycleProbe implements OnModuleInit {
  initialized = 0;

  onModuleInit(): void {
    this.initialized += 1;
  }
}

describe('In-process transport', () => {
  const eventLog = new EventLog();
  let app: INestApplication;
  let bus: Bus;

  beforeAll(async () => {
    app = await bootBusApp(inProcess, {
      // The failing consumer sits between the others, so a failure that stopped the fan-out would show.
      controllers: [ConformanceCommands, OutageCommands, LedgerConsumer, FailingConsumer, AuditConsumer, DeadLetters],
      providers: [{ provide: EventLog, useValue: eventLog }, LifecycleProbe],
      logger,
    });
    bus = app.get<Bus>(BUS);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('resolves a publish only once every handler has finished, whether or not one failed', async () => {
    const event = { id: randomUUID(), store: 'shop.example' };

    await bus.publish('test.happened', event);

    // The ledger consumer records 20 ms after it received the event: no waiting here.
    expect(eventLog.groupsThatSaw(event.id)).toEqual(['audit', 'ledger']);
  });

  it('tries a failing event handler a bounded number of times, then dead-letters its event with the error', async () => {
    const mark = logger.mark();
    const attemptsBefore = app.get(FailingConsumer).attempts;
    const event = { id: randomUUID(), store: 'shop.example' };

    await bus.publish('test.happened', event);

    expect(app.get(FailingConsumer).attempts - attemptsBefore).toBe(EVENT_HANDLER_ATTEMPTS);
    const letter = { topic: 'test.happened', key: null, event, error: 'Disk full', attempts: EVENT_HANDLER_ATTEMPTS, at: expect.any(String) };
    expect(app.get(DeadLetters).received).toContainEqual(letter);
    // Kept for operators as Kafka keeps the topic (npm run projections -- list).
    expect(await app.get<DeadLetterLog>(DEAD_LETTERS).list()).toContainEqual(letter);
    const errors = logger.errorsSince(mark).join('\n');
    expect(errors).toContain('Disk full');
    expect(errors).toContain(`An event handler of "test.happened" failed ${EVENT_HANDLER_ATTEMPTS} times; its event goes to ${DEAD_LETTER_TOPIC}`);
  });

  it('logs on the server side what an internal_error hides from the caller', async () => {
    const mark = logger.mark();

    await expect(bus.request('test.crash', {})).rejects.toMatchObject({ code: 'internal_error' });

    const errors = logger.errorsSince(mark).join('\n');
    expect(errors).toContain('The handler of "test.crash" failed');
    expect(errors).toContain('Connection to the database lost');
  });

  it('answers service_unavailable, not internal_error, when a store is out of reach', async () => {
    await expect(bus.request('test.outage', {})).rejects.toMatchObject({
      code: 'service_unavailable',
      message: 'A data store is unavailable; retry shortly',
    });
  });

  it('answers a request that no handler takes at once, with service_unavailable', async () => {
    const failure = await bus.request('test.unknown', {}, { timeoutMs: 10_000 }).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(DomainError);
    expect(failure).toMatchObject({ code: 'service_unavailable', message: 'No service handles "test.unknown"' });
  });

  it('copies payloads as a wire would: no shared references, dates as text', async () => {
    const payload = { at: new Date(0), list: [1, 2] };

    const reply = await bus.request<{ echoed: { list: number[] } }>('test.echo', payload);

    expect(reply.echoed).toEqual({ at: '1970-01-01T00:00:00.000Z', list: [1, 2] });
    expect(reply.echoed.list).not.toBe(payload.list);
  });

  it('drops unexecuted a command that arrives after its deadline', async () => {
    const id = randomUUID();
    const expired = { id, delayMs: 0, command: { id: randomUUID(), deadline: new Date(Date.now() - 1).toISOString() } };

    const failure = await firstValueFrom(app.get<ClientProxy>(BUS_CLIENT).send('test.record', expired)).catch((error: unknown) => error);

    expect(failure).toMatchObject({ code: 'service_unavailable', message: 'The command expired before it ran' });
    expect(eventLog.groupsThatSaw(id)).toEqual([]);
  });

  it('runs the lifecycle hooks of the application once, bus server included', () => {
    expect(app.get(LifecycleProbe).initialized).toBe(1);
  });

  it('keeps two applications in one process apart', async () => {
    const otherLog = new EventLog();
    const other = await bootBusApp(inProcess, {
      controllers: [AuditConsumer],
      providers: [{ provide: EventLog, useValue: otherLog }],
      logger,
    });
    try {
      const event = { id: randomUUID(), store: 'shop.example' };

      await bus.publish('test.happened', event);
      const unanswered = await other.get<Bus>(BUS).request('test.echo', {}).catch((error: unknown) => error);

      expect(otherLog.groupsThatSaw(event.id)).toEqual([]);
      expect(unanswered).toMatchObject({ code: 'service_unavailable' });
      expect(other.get(IN_PROCESS_BROKER)).not.toBe(app.get(IN_PROCESS_BROKER));
      expect(app.get<ClientProxy>(BUS_CLIENT).unwrap()).toBe(app.get(IN_PROCESS_BROKER));
    } finally {
      await other.close();
    }
  });
});
