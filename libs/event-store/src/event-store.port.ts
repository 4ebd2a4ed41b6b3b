/**
 * The event store port, with EventStoreDB's semantics. Every adapter (SQLite embedded, EventStoreDB distributed)
 * passes the one conformance suite in `event-store.conformance.ts`.
 *
 * Conventions, the same on every adapter:
 * - A stream's first event has revision 0; an empty or missing stream has no revision.
 * - Every event has a global position, a positive safe integer that grows with every append; positions are
 *   unique per event, but need not be contiguous.
 * - `fromPosition` is exclusive: reading from P returns the events after P. Omitted means from the start.
 */

export type ExpectedRevision = 'any' | 'no_stream' | number;

export interface EventMetadata {
  correlationId?: string;
  causationId?: string;
  /** Actor label, e.g. `api:<token prefix>`, `admin-cli`, `system`. */
  actor?: string;
  orgId?: string;
  /** Version of the event's data schema; absent means 1. Upcasters read it. */
  schemaVersion?: number;
  [key: string]: unknown;
}

export interface NewEvent<Data = unknown> {
  /** Event id (UUID); generated when omitted. */
  id?: string;
  type: string;
  data: Data;
  metadata?: EventMetadata;
}

export interface RecordedEvent<Data = unknown> {
  id: string;
  stream: string;
  revision: number;
  position: number;
  type: string;
  data: Data;
  metadata: EventMetadata;
  /** ISO 8601 UTC with milliseconds. */
  createdAt: string;
}

export interface AppendResult {
  /** Revision of the last event written. */
  nextRevision: number;
  /** Global position of the last event written; read models wait for it (read-your-writes). */
  position: number;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    /** The stream's current revision, or 'no_stream'. */
    readonly actual: number | 'no_stream',
  ) {
    super(`Wrong expected revision on ${stream}: expected ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

export interface EventFilter {
  /** Keep events whose stream name starts with one of these, e.g. `store-`. */
  streamPrefixes?: string[];
  /** Keep events of these types. */
  eventTypes?: string[];
}

export interface ReadStreamOptions {
  fromRevision?: number;
  maxCount?: number;
}

export interface ReadAllOptions {
  /** Exclusive; omitted = from the start. */
  fromPosition?: number;
  filter?: EventFilter;
  maxCount?: number;
}

export interface SubscribeOptions {
  /** Exclusive; omitted = from the start. */
  fromPosition?: number;
  filter?: EventFilter;
  /** Called in global order, one event at a time; the next event waits for the returned promise. */
  onEvent(event: RecordedEvent): Promise<void>;
  /**
   * Called when the subscription has delivered everything stored up to `position`, once after the catch-up and
   * again whenever it is idle at the live edge. Filters skip events, so this is how a consumer knows how far it
   * has looked even when nothing matched.
   */
  onCaughtUp?(position: number): void;
  /** The subscription stopped because of an error (handler threw, connection lost). Resubscribing is the caller's. */
  onDropped?(error: Error): void;
}

export interface Subscription {
  /** Stops delivering; resolves once no handler is running any more. */
  stop(): Promise<void>;
}

export interface EventStore {
  append(stream: string, events: NewEvent[], options?: { expectedRevision?: ExpectedRevision }): Promise<AppendResult>;
  /** The stream's events in revision order; an empty array for a stream that does not exist. */
  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Events of all streams in global order. */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Global position of the newest event, 0 when the store is empty. */
  headPosition(): Promise<number>;
  /** Catch-up then live subscription to all events. */
  subscribeToAll(options: SubscribeOptions): Subscription;
  close(): Promise<void>;
}

export const EVENT_STORE = Symbol('EventStore');

export const matchesFilter = (event: Pick<RecordedEvent, 'stream' | 'type'>, filter?: EventFilter): boolean => {
  if (!filter) return true;
  if (filter.streamPrefixes && !filter.streamPrefixes.some((prefix) => event.stream.startsWith(prefix))) return false;
  if (filter.eventTypes && !filter.eventTypes.includes(event.type)) return false;
  return true;
};
