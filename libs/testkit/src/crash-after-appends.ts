import type { EventStore } from '@pss/event-store';

/**
 * What a service's event store calls meet once its process has died: shaped as an outage (the EventStoreDB client's
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
  // The adapter's own method, from its class: the service's store is a proxy (appends are timed) whose `append`
  // calls the adapter's, so the crash is put on the adapter, behind the timing, and taken off by deleting it.
  const adapterAppend = (Object.getPrototypeOf(eventStore) as EventStore).append;
  let made = 0;
  eventStore.append = async (...args) => {
    if (made >= appends) throw new ProcessDownError();
    if (!counted(args[0])) return adapterAppend.apply(eventStore, args);
    made += 1;
    const result = await adapterAppend.apply(eventStore, args);
    if (made === appends) throw new ProcessDownError();
    return result;
  };
  return {
    restart: () => {
      delete (eventStore as Partial<EventStore>).append;
    },
  };
}
