import type {
  AppendResult,
  EventStore,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
} from '@pss/event-store';

/** Spacing of positions: EventStoreDB's are byte offsets in its log, far apart and never consecutive. */
const STRIDE = 137;

/** What EventStoreDB answers a read or subscription from a position that is not a record boundary. */
export class InvalidPositionError extends Error {
  constructor(readonly position: number) {
    super(`InvalidPosition: ${position} is not the position of an event (as EventStoreDB refuses it)`);
    this.name = 'InvalidPositionError';
  }
}

/**
 * An event store with EventStoreDB's positions, over a store with dense ones: positions are far apart, and a read
 * or subscription from a position the store never handed out is refused (KurrentDB's `InvalidPosition`), where a
 * SQLite store would quietly start after it. Consumers that compute a position (`p − 1`) fail here as they would
 * on the server.
 */
export class SparseEventStore implements EventStore {
  constructor(private readonly dense: EventStore) {}

  async append(stream: string, events: NewEvent[], options?: Parameters<EventStore['append']>[2]): Promise<AppendResult> {
    const result = await this.dense.append(stream, events, options);
    return { ...result, position: sparse(result.position) };
  }

  async readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return (await this.dense.readStream(stream, options)).map(sparseEvent);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const events = await this.dense.readAll({ ...options, fromPosition: denseFrom(options.fromPosition) });
    return events.map(sparseEvent);
  }

  async headPosition(): Promise<number> {
    return sparse(await this.dense.headPosition());
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    if (!isHandedOut(options.fromPosition)) return refused(options, options.fromPosition as number);
    return this.dense.subscribeToAll({
      ...options,
      fromPosition: denseFrom(options.fromPosition),
      onEvent: (event) => options.onEvent(sparseEvent(event)),
      onCaughtUp: options.onCaughtUp && ((position) => options.onCaughtUp?.(sparse(position))),
    });
  }

  close(): Promise<void> {
    return this.dense.close();
  }
}

const sparse = (position: number): number => position * STRIDE;
const sparseEvent = (event: RecordedEvent): RecordedEvent => ({ ...event, position: sparse(event.position) });
const isHandedOut = (position: number | undefined): boolean => position === undefined || position % STRIDE === 0;

const denseFrom = (position: number | undefined): number | undefined => {
  if (!isHandedOut(position)) throw new InvalidPositionError(position as number);
  return position === undefined ? undefined : position / STRIDE;
};

/** The server ends the call with an error: the subscription drops at once, delivering nothing. */
function refused(options: SubscribeOptions, position: number): Subscription {
  let stopped = false;
  setImmediate(() => stopped || options.onDropped?.(new InvalidPositionError(position)));
  return {
    stop: async () => {
      stopped = true;
    },
  };
}
