import type { EventStoreDBClient } from '@eventstore/db-client';
import { EventStoreDbEventStore } from './esdb-event-store';
import { ReadDeadlineExceededError, type CancellableRead } from './read-deadline';

/** A read the server never answers, as a client with `deadline: Infinity` meets a hung server; cancel ends it. */
class HungRead implements CancellableRead<never> {
  cancelled = false;
  private end?: () => void;

  async cancel(): Promise<void> {
    this.cancelled = true;
    this.end?.();
  }

  [Symbol.asyncIterator](): AsyncIterator<never> {
    return {
      next: async () => {
        await new Promise<void>((resolve) => (this.end = resolve));
        throw new Error('Cancelled on client');
      },
    };
  }
}

describe('EventStoreDbEventStore reads against a server that stopped answering', () => {
  const reads: HungRead[] = [];
  const client = {
    readStream: () => reads[reads.push(new HungRead()) - 1],
    readAll: () => reads[reads.push(new HungRead()) - 1],
    dispose: async () => undefined,
  } as unknown as EventStoreDBClient;
  const store = new EventStoreDbEventStore(client, { readDeadlineMs: 50 });

  it.each([
    ['a stream read', () => store.readStream('store-1')],
    ['a read of $all', () => store.readAll({ fromPosition: 0 })],
    ['the head position', () => store.headPosition()],
  ])('gives %s up at its deadline as an outage (deadline-exceeded), and cancels the call', async (_what, read) => {
    const started = Date.now();
    const failure = await read().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ReadDeadlineExceededError);
    expect(failure).toMatchObject({ type: 'deadline-exceeded' });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(reads[reads.length - 1].cancelled).toBe(true);
  });
});
