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
 * A crash point: the `appends`-th append from now commits, and its caller never learns it (the process died with
 * the acknowledgement in flight); every later append fails, compensation included, as nothing runs after a crash.
 * `restart()` brings the process back, with what the event store holds.
 */
export function crashAfterAppends(eventStore: EventStore, appends: number): { restart(): void } {
  // The adapter's own method, from its class: the service's store is a proxy (appends are timed) whose `append`
  // calls the adapter's, so the crash is put on the adapter, behind the timing, and taken off by deleting it.
  const adapterAppend = (Object.getPrototypeOf(eventStore) as EventStore).append;
  let made = 0;
  eventStore.append = async (...args) => {
    made += 1;
    if (made > appends) throw new ProcessDownError();
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
