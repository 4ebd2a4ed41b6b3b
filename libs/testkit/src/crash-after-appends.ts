import type { EventStore } from '@pss/event-store';

/**
 * What a service's event store calls meet once its process has died (or the store is out of reach): shaped as an outage (the EventStoreDB client's
 * `unavailable`), so the caller answers 503 and the key of its request is released for the retry, and background
 * handlers of the same process wait instead of dead-lettering, as they would have stopped with the process.
 */
export class ProcessDownError extends Error {
  readonly type = 'unavailable';

  constructor() {
    super('The process died (a crash point of a test)');
    this.name = 'ProcessDownError';
  }
}

/**
 * A crash point: the `appends`-th append from now to a stream `counted` names commits, and its caller never learns
 * it (the process died with the acknowledgement in flight); every later append fails, compensation included, as
 * nothing runs after a crash. Only the operation's own streams are counted: background work of the same process
 * (consumers, projections that append) would move the crash point. `restart()` brings the process back, with what
 * the event store holds.
 */
export function crashAfterAppends(eventStore: EventStore, appends: number, counted: (stream: string) => boolean): { restart(): void } {
  let made = 0;
  return {
    restart: replaceAppend(eventStore, async (adapterAppend, args) => {
      if (made >= appends) throw new ProcessDownError();
      if (!counted(args[0])) return adapterAppend(args);
      made += 1;
      const result = await adapterAppend(args);
      if (made === appends) throw new ProcessDownError();
      return result;
    }),
  };
}

/** An event store refusing appends to the streams `affected` names, as an unreachable EventStoreDB, until `end()`. */
export function appendOutage(eventStore: EventStore, affected: (stream: string) => boolean): { end(): void } {
  return {
    end: replaceAppend(eventStore, async (adapterAppend, args) => {
      if (affected(args[0])) throw new ProcessDownError();
      return adapterAppend(args);
    }),
  };
}

type AppendArgs = Parameters<EventStore['append']>;

/**
 * Puts `append` on the adapter and answers how to take it off. The adapter's own method comes from its class: the
 * service's store is a proxy (appends are timed) whose `append` calls the adapter's, so the fault goes behind the
 * timing, and deleting it restores the class's.
 */
function replaceAppend(
  eventStore: EventStore,
  append: (adapterAppend: (args: AppendArgs) => ReturnType<EventStore['append']>, args: AppendArgs) => ReturnType<EventStore['append']>,
): () => void {
  const adapterAppend = (Object.getPrototypeOf(eventStore) as EventStore).append;
  eventStore.append = (...args) => append((forwarded) => adapterAppend.apply(eventStore, forwarded), args);
  return () => {
    delete (eventStore as Partial<EventStore>).append;
  };
}
