import { MongoDBContainer, type StartedMongoDBContainer } from '@testcontainers/mongodb';
import { CONTAINER_TIMEOUT_MS, describeWithContainers } from '@pss/testkit';
import { readStoreConformance } from '../read-store.conformance';
import { MongoReadStore } from './mongo-read-store';

describeWithContainers('MongoReadStore on MongoDB 7', () => {
  let mongo: StartedMongoDBContainer;

  beforeAll(async () => {
    mongo = await new MongoDBContainer('mongo:7').start();
  }, CONTAINER_TIMEOUT_MS);
  afterAll(async () => {
    await mongo?.stop();
  });

  readStoreConformance('mongo', async () => {
    // The container runs a one-member replica set that advertises an address only reachable inside it.
    const url = `${mongo.getConnectionString()}/?directConnection=true`;
    const store = await MongoReadStore.connect(url, 'read_store_conformance');
    return { store, cleanup: () => store.close() };
  });
});
