import { START, type Position, type ReadPosition, type RecordedEvent as StoredEvent } from '@eventstore/db-client';
import type { EventMetadata, RecordedEvent } from '../event-store.port';

/**
 * EventStoreDB positions ({commit, prepare} in the transaction log) to the port's integer position: the commit
 * position. Every event written by a gRPC append is its own implicitly committed record, whose commit position is
 * its own log position (equal to its prepare position), so it is unique per event even inside one multi-event
 * append, and it grows in $all order. Only the legacy TCP API's explicit transactions gave several events one
 * commit position; nothing in this system writes those.
 */
export const toPortPosition = (position: Position): number => {
  const value = Number(position.commit);
  if (!Number.isSafeInteger(value)) throw new RangeError(`EventStoreDB position ${position.commit} is not a safe integer`);
  return value;
};

/**
 * Where to start reading for "after `position`". EventStoreDB starts at the given position inclusive, so readers
 * drop the event at exactly `position`; only positions this adapter handed out (or 0) are valid here, because
 * the server reads from a record boundary.
 */
export const readPositionAfter = (position: number): ReadPosition =>
  position === 0 ? START : { commit: BigInt(position), prepare: BigInt(position) };

/** The clock's time of the append, kept in the event's metadata so both adapters take time from the same clock. */
export const CREATED_AT_KEY = '$createdAt';

/** `$`-prefixed streams and types are the server's own (projections' links, stats, stream metadata). */
export const isSystemEvent = (event: { streamId: string; type: string }): boolean =>
  event.type.startsWith('$') || event.streamId.startsWith('$');

/** Undefined for the server's own events, which the port never returns. */
export function toRecordedEvent(event: StoredEvent): RecordedEvent | undefined {
  if (isSystemEvent(event)) return undefined;
  if (!event.position) throw new Error('EventStoreDB returned an event without a position (server older than 22.6?)');
  const stored = isPlainObject(event.metadata) ? event.metadata : {};
  const { [CREATED_AT_KEY]: createdAt, ...metadata } = stored;
  return {
    id: event.id,
    stream: event.streamId,
    revision: Number(event.revision),
    position: toPortPosition(event.position),
    type: event.type,
    data: event.data,
    metadata: metadata as EventMetadata,
    createdAt: typeof createdAt === 'string' ? createdAt : event.created.toISOString(),
  };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
