import { randomUUID } from 'node:crypto';
import { MongoDBContainer, type StartedMongoDBContainer } from '@testcontainers/mongodb';
import { MemoryReadStore, MongoReadStore } from '@pss/read-store';
import { CONTAINER_IMAGES, CONTAINER_TIMEOUT_MS, describeWithContainers } from '@pss/testkit';
import { idempotencyStoreConformance } from '../idempotency-store.conformance';
import { ReadStoreIdempotencyStore } from './read-store-idempotency-store';

idempotencyStoreConformance('ReadStoreIdempotencyStore on MemoryReadStore', async (clock) => {
  const readStore = new MemoryReadStore();
  return { store: await ReadStoreIdempotencyStore.open(readStore, clock), cleanup: () => readStore.close() };
});

describeWithContainers(`ReadStoreIdempotencyStore on ${CONTAINER_IMAGES.mongo}`, () => {
  let mongo: StartedMongoDBContainer;

  beforeAll(async () => {
    mongo = await new MongoDBContainer(CONTAINER_IMAGES.mongo).start();
  }, CONTAINER_TIMEOUT_MS);
  afterAll(async () => {
    await mongo?.stop();
  });

  idempotencyStoreConformance('mongo', async (clock) => {
    // The container runs a one-member replica set that advertises an address only reachable inside it.
    const url = `${mongo.getConnectionString()}/?directConnection=true`;
    // A database per test: the purge tests count every expired record of the collection.
    const readStore = await MongoReadStore.connect(url, `idempotency_${randomUUID().slice(0, 8)}`);
    return {
      store: await ReadStoreIdempotencyStore.open(readStore, clock),
      cleanup: async () => {
        await readStore.drop('idempotency_keys');
        await readStore.close();
      },
    };
  });
});
