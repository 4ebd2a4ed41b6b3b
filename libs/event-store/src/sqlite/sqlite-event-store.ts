import Database from 'better-sqlite3';
import { Clock, isoTime, systemClock, uuidv7, yieldToRequests } from '@pss/kernel';
import {
  AppendResult,
  EventFilter,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
  WrongExpectedRevisionError,
} from '../event-store.port';
import { GroupCommit, type Outcome, type Write } from './group-commit';
import { RecentEvents, type EventRow } from './recent-events';
import { SqliteCheckpointStore } from './sqlite-checkpoint-store';
import { SqliteSubscription } from './sqlite-subscription';

export interface SqliteEventStoreOptions {
  clock?: Clock;
  /**
   * How often live subscriptions look for events appended by other processes on the same file (500 ms unless set).
   * Appends through this instance wake them at once, so the poll is only for other processes; at 50 ms, some
   * twenty idle subscriptions polling cost about 4 % of a busy service's CPU.
   */
  pollIntervalMs?: number;
  /** Events read per query while a subscription catches up. */
  pageSize?: number;
  /**
   * Positions one query looks through at most. A filter that matches rare events (a projection of one event
   * type) would otherwise scan the whole table in one synchronous query and hold the event loop for it.
   */
  scanWindow?: number;
  /** How long an append waits for another process (e.g. the admin CLI) that holds the write lock. */
  busyTimeoutMs?: number;
  /** Writes (appends, checkpoint saves) committed in one transaction at most; the rest go in the next turn. */
  maxGroupSize?: number;
  /** The newest events this process committed that reads find in memory (RecentEvents). */
  recentEvents?: number;
}

interface AppendRequest {
  stream: string;
  events: NewEvent[];
  expected: ExpectedRevision;
}


const SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    position INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    stream TEXT NOT NULL,
    revision INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    metadata TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  -- Serves reads by stream and stream-prefix filters (GLOB 'prefix*' is a range scan on it).
  CREATE UNIQUE INDEX IF NOT EXISTS events_stream_revision ON events (stream, revision);
`;

const COLUMNS = 'position, id, stream, revision, type, data, metadata, created_at';
const NO_STREAM = -1;
/** How often subscriptions ask the file for its head, for other processes' appends (well under the poll). */
const HEAD_QUERY_MS = 50;

/** GLOB has no escape character; a special character is matched literally inside brackets. */
const globPrefix = (prefix: string): string => `${prefix.replace(/[*?[]/g, '[$&]')}*`;

const toRecordedEvent = ([position, id, stream, revision, type, data, metadata, createdAt]: EventRow): RecordedEvent => ({
  id,
  stream,
  revision,
  position,
  type,
  data: JSON.parse(data),
  metadata: JSON.parse(metadata),
  createdAt,
});

/**
 * The embedded event store: one SQLite file in WAL mode. Appends take the write lock (`BEGIN IMMEDIATE`) before
 * checking the expected revision, so the check holds across processes sharing the file; the position is the
 * AUTOINCREMENT rowid, assigned in commit order because writers are serialized.
 *
 * Group commit: the appends (and checkpoint saves) made during one turn of the event loop share one transaction,
 * so one fsync (`synchronous = FULL`) makes them all durable. Each runs in its own savepoint, and an append checks
 * its own expected revision against everything before it, the group's earlier appends included: a conflict rolls
 * back that append alone. Every promise settles after the COMMIT has returned, so nothing is acknowledged before
 * it is on disk.
 */
export class SqliteEventStore implements EventStore {
  private readonly clock: Clock;
  private readonly pollIntervalMs: number;
  private readonly pageSize: number;
  private readonly scanWindow: number;
  private readonly subscriptions = new Set<SqliteSubscription>();
  private readonly filteredReads = new Map<string, Database.Statement<unknown[], EventRow>>();
  private checkpointStore?: SqliteCheckpointStore;

  private readonly currentRevision: Database.Statement<[string], number | null>;
  private readonly insert: Database.Statement<[string, string, number, string, string, string, string]>;
  private readonly streamEvents: Database.Statement<[string, number, number], EventRow>;
  private readonly head: Database.Statement<[], number | null>;
  private readonly writes: GroupCommit;
  private readonly commitStats = { commits: 0, writes: 0 };
  private readonly recent: RecentEvents;
  private queriedHead = { position: 0, at: -Infinity };
  /** Rows of the group being committed, added to `recent` once it is durable. */
  private groupRows: EventRow[] = [];

  static open(path: string, options: SqliteEventStoreOptions = {}): SqliteEventStore {
    return new SqliteEventStore(new Database(path), options);
  }

  /** `database` is owned from here on: `close()` closes it. */
  constructor(
    /** Shared with the checkpoint store; exposed for it and for diagnostics, never for writing events. */
    readonly database: Database.Database,
    options: SqliteEventStoreOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.pageSize = options.pageSize ?? 500;
    this.scanWindow = options.scanWindow ?? 5_000;
    // busy_timeout first: switching to WAL needs a lock another process may hold.
    database.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    database.pragma('journal_mode = WAL');
    // WAL defaults to NORMAL, which can lose acknowledged commits on power loss.
    database.pragma('synchronous = FULL');
    database.exec(SCHEMA);

    this.currentRevision = database
      .prepare<[string], number | null>('SELECT MAX(revision) FROM events WHERE stream = ?')
      .pluck();
    this.insert = database.prepare(
      'INSERT INTO events (id, stream, revision, type, data, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.streamEvents = database
      .prepare<[string, number, number], EventRow>(`SELECT ${COLUMNS} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?`)
      .raw();
    this.head = database.prepare<[], number | null>('SELECT MAX(position) FROM events').pluck();
    // Nested inside the group's transaction, better-sqlite3 runs each write in a savepoint.
    const inSavepoint = database.transaction((write: Write<unknown>) => write());
    const group = database.transaction((writes: Array<Write<unknown>>) => writes.map((write) => this.attempt(inSavepoint, write)));
    this.recent = new RecentEvents(options.recentEvents ?? 2_000);
    this.writes = new GroupCommit((writes) => {
      this.groupRows = [];
      const outcomes = group.immediate(writes);
      this.recent.add(this.groupRows);
      this.commitStats.commits += 1;
      this.commitStats.writes += writes.length;
      for (const subscription of this.subscriptions) subscription.wake();
      return outcomes;
    }, options.maxGroupSize ?? 1_000);
  }

  async append(
    stream: string,
    events: NewEvent[],
    options: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error(`Nothing to append to ${stream}: an append needs at least one event`);
    const request: AppendRequest = { stream, events, expected: options.expectedRevision ?? 'any' };
    return this.writes.submit(() => this.appendInTransaction(request));
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    return this.streamEvents.all(stream, options.fromRevision ?? 0, options.maxCount ?? -1).map(toRecordedEvent);
  }

  /** Window by window up to the head, yielding to requests between windows. */
  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const limit = options.maxCount ?? Number.POSITIVE_INFINITY;
    const head = this.head.get() ?? 0;
    const events: RecordedEvent[] = [];
    for (let after = options.fromPosition ?? 0; after < head && events.length < limit; after += this.scanWindow) {
      const left = limit - events.length;
      events.push(...this.readRange(after, Math.min(head, after + this.scanWindow), options.filter, Number.isFinite(left) ? left : -1));
      await yieldToRequests();
    }
    return events;
  }

  async headPosition(): Promise<number> {
    return this.head.get() ?? 0;
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    const subscription = new SqliteSubscription(
      {
        head: () => this.subscriptionHead(),
        read: (after, upTo, filter, limit) => this.readRange(after, upTo, filter, limit),
        forget: (ended) => this.subscriptions.delete(ended),
      },
      options,
      { pollIntervalMs: this.pollIntervalMs, pageSize: this.pageSize, scanWindow: this.scanWindow },
    );
    this.subscriptions.add(subscription);
    subscription.start();
    return subscription;
  }

  /**
   * The head for a subscription's round: what this process committed is known without a query, and another
   * process's appends are looked for at most every HEAD_QUERY_MS. A score of subscriptions each asked the file
   * after every commit (8 % of the CPU while facts fanned out); a head a little behind only delays a round.
   */
  private subscriptionHead(): number {
    const now = performance.now();
    if (now - this.queriedHead.at >= HEAD_QUERY_MS) this.queriedHead = { position: this.head.get() ?? 0, at: now };
    return Math.max(this.queriedHead.position, this.recent.end);
  }

  /** Transactions committed and the writes they held (failed ones included): how well group commit gathers. */
  groupCommitStats(): { commits: number; writes: number } {
    return { ...this.commitStats };
  }

  /** Checkpoints kept in the same file, so a projection's read model and position can share one durability story. */
  checkpoints(): SqliteCheckpointStore {
    this.checkpointStore ??= new SqliteCheckpointStore(this.database, (write) => this.writes.submit(write));
    return this.checkpointStore;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    if (this.database.open) {
      this.writes.drain();
      this.database.close();
    }
  }

  /** One write of a group: its failure is its own, unless SQLite gave up the whole transaction. */
  private attempt(inSavepoint: (write: Write<unknown>) => unknown, write: Write<unknown>): Outcome {
    try {
      return { ok: true, value: inSavepoint(write) };
    } catch (error) {
      if (!this.database.inTransaction) throw error; // e.g. disk full or I/O error: SQLite rolled everything back
      return { ok: false, error };
    }
  }

  private appendInTransaction({ stream, events, expected }: AppendRequest): AppendResult {
    const current = this.currentRevision.get(stream) ?? NO_STREAM;
    if (!isExpected(expected, current)) {
      throw new WrongExpectedRevisionError(stream, expected, current === NO_STREAM ? 'no_stream' : current);
    }
    const createdAt = isoTime(this.clock.now());
    let revision = current;
    let position = 0;
    const rows: EventRow[] = [];
    for (const event of events) {
      revision += 1;
      const row: EventRow = [0, event.id ?? uuidv7(), stream, revision, event.type, JSON.stringify(event.data), event.metadata ? JSON.stringify(event.metadata) : '{}', createdAt];
      position = Number(this.insert.run(row[1], row[2], row[3], row[4], row[5], row[6], row[7]).lastInsertRowid);
      row[0] = position;
      rows.push(row);
    }
    // Only now: an append that fails midway is rolled back whole, and none of its rows were committed.
    this.groupRows.push(...rows);
    return { nextRevision: revision, position };
  }

  private readRange(after: number, upTo: number, filter: EventFilter | undefined, limit: number): RecordedEvent[] {
    const recent = this.recent.read(after, upTo, filter, limit);
    if (recent) return recent.map(toRecordedEvent);
    const prefixes = filter?.streamPrefixes?.map(globPrefix);
    const types = filter?.eventTypes;
    return this.filteredRead(prefixes?.length, types?.length)
      .all(after, upTo, ...(prefixes ?? []), ...(types ?? []), limit)
      .map(toRecordedEvent);
  }

  /** One cached statement per filter shape (how many prefixes, how many types); undefined = no such filter. */
  private filteredRead(prefixCount?: number, typeCount?: number): Database.Statement<unknown[], EventRow> {
    const key = `${prefixCount ?? '-'}:${typeCount ?? '-'}`;
    let statement = this.filteredReads.get(key);
    if (!statement) {
      const where = ['position > ?', 'position <= ?'];
      // An empty list keeps nothing, like `matchesFilter`.
      if (prefixCount !== undefined) where.push(`(${Array(prefixCount).fill('stream GLOB ?').join(' OR ') || '0'})`);
      if (typeCount !== undefined) where.push(`type IN (${Array(typeCount).fill('?').join(', ')})`);
      statement = this.database
        .prepare<unknown[], EventRow>(`SELECT ${COLUMNS} FROM events WHERE ${where.join(' AND ')} ORDER BY position LIMIT ?`)
        .raw();
      this.filteredReads.set(key, statement);
    }
    return statement;
  }
}

function isExpected(expected: ExpectedRevision, current: number): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return current === NO_STREAM;
  if (!Number.isInteger(expected) || expected < 0) throw new RangeError(`Invalid expected revision ${expected}`);
  return current === expected;
}
