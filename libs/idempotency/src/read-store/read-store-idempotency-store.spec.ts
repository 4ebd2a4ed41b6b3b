import { randomUUID } from 'node:crypto';
import { MemoryReadStore, MongoReadStore } from '@pss/read-store';
import { CONTAINER_IMAGES, describeWithContainers, mongoInContainer } from '@pss/testkit';
import { idempotencyStoreConformance } from '../idempotency-store.conformance';
import { ReadStoreIdempotencyStore } from './read-store-idempotency-store';

idempotencyStoreConformance('ReadStoreIdempotencyStore on MemoryReadStore', async (clock) => {
  const readStore = new MemoryReadStore();
  return { store: await ReadStoreIdempotencyStore.open(readStore, clock), cleanup: () => readStore.close() };
});

describeWithContainers(`ReadStoreIdempotencyStore on ${CONTAINER_IMAGES.mongo}`, () => {
  const mongo = mongoInContainer();

  idempotencyStoreConformance('mongo', async (clock) => {
    // A database per test: the purge tests count every expired record of the collection.
    const readStore = await MongoReadStore.connect(mongo.url(), `idempotency_${randomUUID().slice(0, 8)}`);
    return {
      store: await ReadStoreIdempotencyStore.open(readStore, clock),
      cleanup: async () => {
        await readStore.drop('idempotency_keys');
        await readStore.close();
      },
    };
  });
});
