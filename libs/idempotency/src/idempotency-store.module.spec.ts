import { MemoryReadStore } from '@pss/read-store';
import { SqliteEventStore, type EventStore } from '@pss/event-store';
import { ManualClock } from '@pss/testkit';
import { openIdempotencyStore } from './idempotency-store.module';
import { ReadStoreIdempotencyStore } from './read-store/read-store-idempotency-store';
import { SqliteIdempotencyStore } from './sqlite/sqlite-idempotency-store';

describe('openIdempotencyStore', () => {
  const clock = new ManualClock();

  it('keeps keys beside the events when the event store is SQLite (embedded)', async () => {
    const eventStore = SqliteEventStore.open(':memory:', { clock });
    try {
      expect(await openIdempotencyStore(eventStore, new MemoryReadStore(), clock)).toBeInstanceOf(SqliteIdempotencyStore);
    } finally {
      await eventStore.close();
    }
  });

  it('keeps keys in the read store otherwise (distributed)', async () => {
    const eventStore = {} as EventStore; // never used: only its kind matters
    expect(await openIdempotencyStore(eventStore, new MemoryReadStore(), clock)).toBeInstanceOf(ReadStoreIdempotencyStore);
  });
});
