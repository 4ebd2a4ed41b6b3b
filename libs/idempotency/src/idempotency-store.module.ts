import { Module } from '@nestjs/common';
import { EVENT_STORE, SqliteEventStore, type EventStore } from '@pss/event-store';
import { CLOCK, type Clock } from '@pss/kernel';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { IDEMPOTENCY_STORE, type IdempotencyStore } from './idempotency-store.port';
import { ReadStoreIdempotencyStore } from './read-store/read-store-idempotency-store';
import { SqliteIdempotencyStore } from './sqlite/sqlite-idempotency-store';

/**
 * Keys live where they are durable: beside the events in embedded mode (the read store there is memory, lost
 * on restart), in MongoDB in distributed mode (shared by every gateway replica).
 */
export async function openIdempotencyStore(eventStore: EventStore, readStore: ReadStore, clock: Clock): Promise<IdempotencyStore> {
  if (eventStore instanceof SqliteEventStore) return new SqliteIdempotencyStore(eventStore.database, clock);
  return ReadStoreIdempotencyStore.open(readStore, clock);
}

/** Provides IDEMPOTENCY_STORE on the platform's adapters (EVENT_STORE, READ_STORE and CLOCK, global). */
@Module({
  providers: [{ provide: IDEMPOTENCY_STORE, useFactory: openIdempotencyStore, inject: [EVENT_STORE, READ_STORE, CLOCK] }],
  exports: [IDEMPOTENCY_STORE],
})
export class IdempotencyStoreModule {}
