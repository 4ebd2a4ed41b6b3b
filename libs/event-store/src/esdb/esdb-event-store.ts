import {
  ANY,
  BACKWARDS,
  END,
  FORWARDS,
  EventStoreDBClient,
  NO_STREAM,
  StreamNotFoundError,
  WrongExpectedVersionError,
  jsonEvent,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type Direction,
  type JSONType,
  type ReadPosition,
} from '@eventstore/db-client';
import { Clock, isoTime, systemClock, uuidv7 } from '@pss/kernel';
import {
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
  WrongExpectedRevisionError,
  matchesFilter,
} from '../event-store.port';
import { CREATED_AT_KEY, isSystemEvent, readPositionAfter, toPortPosition, toRecordedEvent } from './esdb-positions';
import { EsdbSubscription } from './esdb-subscription';
import { READ_DEADLINE_MS, readWithin } from './read-deadline';

export interface EventStoreDbEventStoreOptions {
  /** Stamps `createdAt` (kept in the event's metadata), like the embedded adapter. */
  clock?: Clock;
  /** How long one read (a stream, a page of $all) may take; READ_DEADLINE_MS unless a test shortens it. */
  readDeadlineMs?: number;
}

/** Events per $all read: reads page through $all because filters are applied here, not by the server. */
const PAGE_SIZE = 500;

/**
 * The distributed event store on EventStoreDB (gRPC client v6). Revisions are the server's (first event 0);
 * positions are commit positions (see `esdb-positions.ts`); the server's own `$` events are never returned.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly clock: Clock;
  private readonly readDeadlineMs: number;
  private readonly subscriptions = new Set<EsdbSubscription>();

  /** e.g. `esdb://localhost:2113?tls=false`. */
  static connect(connectionString: string, options: EventStoreDbEventStoreOptions = {}): EventStoreDbEventStore {
    return new EventStoreDbEventStore(EventStoreDBClient.connectionString(connectionString), options);
  }

  /** `client` is owned from here on: `close()` disposes it. */
  constructor(
    private readonly client: EventStoreDBClient,
    options: EventStoreDbEventStoreOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.readDeadlineMs = options.readDeadlineMs ?? READ_DEADLINE_MS;
  }

  async append(
    stream: string,
    events: NewEvent[],
    options: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error(`Nothing to append to ${stream}: an append needs at least one event`);
    const expected = options.expectedRevision ?? 'any';
    const createdAt = isoTime(this.clock.now());
    let nextRevision: number;
    try {
      const result = await this.client.appendToStream(
        stream,
        events.map((event) =>
          jsonEvent({
            id: event.id ?? uuidv7(),
            type: event.type,
            data: event.data as JSONType,
            metadata: { ...event.metadata, [CREATED_AT_KEY]: createdAt },
          }),
        ),
        { expectedRevision: toExpectedVersion(expected) },
      );
      nextRevision = Number(result.nextExpectedRevision);
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = error.actualVersion;
        throw new WrongExpectedRevisionError(stream, expected, typeof actual === 'bigint' ? Number(actual) : 'no_stream');
      }
      throw error;
    }
    // The append response's position is not documented to be the last event's (and is absent for an idempotent
    // retry); read-your-writes waits for exactly that position, so take it from the event itself.
    const [last] = await this.readStream(stream, { fromRevision: nextRevision, maxCount: 1 });
    if (!last) throw new Error(`Appended to ${stream} but cannot read back revision ${nextRevision}`);
    return { nextRevision, position: last.position };
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    if (options.maxCount === 0) return [];
    try {
      const read = this.client.readStream(stream, {
        fromRevision: BigInt(options.fromRevision ?? 0),
        maxCount: options.maxCount ?? Number.MAX_SAFE_INTEGER,
      });
      const resolved = await readWithin(read, this.readDeadlineMs, `read of ${stream}`);
      return resolved.flatMap(({ event }) => (event && toRecordedEvent(event)) || []);
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const limit = options.maxCount ?? Number.POSITIVE_INFINITY;
    const events: RecordedEvent[] = [];
    let after = options.fromPosition ?? 0;
    while (events.length < limit) {
      const page = await this.readAllPage(readPositionAfter(after), FORWARDS);
      for (const resolved of page) {
        if (!resolved.event) continue;
        const position = toPortPosition(resolved.event.position);
        if (position <= after) continue;
        after = position;
        const event = toRecordedEvent(resolved.event);
        if (event && matchesFilter(event, options.filter)) events.push(event);
        if (events.length === limit) break;
      }
      if (page.length < PAGE_SIZE) break;
    }
    return events;
  }

  /** The newest non-system event's position: projections' link events and server stats come after it. */
  async headPosition(): Promise<number> {
    let from: ReadPosition = END;
    for (;;) {
      const page = await this.readAllPage(from, BACKWARDS);
      const newest = page.find((resolved) => resolved.event && !isSystemEvent(resolved.event));
      if (newest?.event) return toPortPosition(newest.event.position);
      const oldest = page[page.length - 1]?.event;
      if (page.length < PAGE_SIZE || !oldest) return 0;
      from = oldest.position;
    }
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    const subscription = new EsdbSubscription(this.client, options, {
      headPosition: () => this.headPosition(),
      forget: (ended) => this.subscriptions.delete(ended),
    });
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    await this.client.dispose();
  }

  private async readAllPage(from: ReadPosition, direction: Direction): Promise<AllStreamResolvedEvent[]> {
    const read = this.client.readAll({ fromPosition: from, maxCount: PAGE_SIZE, direction });
    return readWithin(read, this.readDeadlineMs, 'read of $all');
  }
}

function toExpectedVersion(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  if (!Number.isInteger(expected) || expected < 0) throw new RangeError(`Invalid expected revision ${expected}`);
  return BigInt(expected);
}
