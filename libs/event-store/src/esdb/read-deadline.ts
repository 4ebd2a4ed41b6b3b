/**
 * The EventStoreDB client (v6) sends reads with `deadline: Infinity` whatever the caller asks
 * (`streams/readStream.js`, `streams/readAll.js`: the call's own deadline wins over the options'), so a read from a
 * server that stopped answering waits forever, and every `decide` starts with one. This one gives up instead.
 */
export const READ_DEADLINE_MS = 10_000;

/** Shaped as the client's DeadlineExceededError (`type`), so `isOutage` takes it for an outage: 503, retried. */
export class ReadDeadlineExceededError extends Error {
  readonly type = 'deadline-exceeded';

  constructor(what: string, deadlineMs: number) {
    super(`EventStoreDB ${what} gave no answer within ${deadlineMs} ms`);
    this.name = 'ReadDeadlineExceededError';
  }
}

/** What the client's reads are: async iterables that can be cancelled. */
export interface CancellableRead<T> extends AsyncIterable<T> {
  cancel(): Promise<void>;
}

/** Every item of `read`, or ReadDeadlineExceededError once `deadlineMs` has passed (the call is cancelled). */
export async function readWithin<T>(read: CancellableRead<T>, deadlineMs: number, what: string): Promise<T[]> {
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    void read.cancel().catch(() => undefined);
  }, deadlineMs);
  const items: T[] = [];
  try {
    for await (const item of read) {
      if (expired) break;
      items.push(item);
    }
  } catch (failure) {
    if (!expired) throw failure;
  } finally {
    clearTimeout(timer);
  }
  if (expired) throw new ReadDeadlineExceededError(what, deadlineMs);
  return items;
}
