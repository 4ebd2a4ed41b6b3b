import { CONTAINER_IMAGES, describeWithContainers, mongoInContainer } from '@pss/testkit';
import { isOutage } from '@pss/bus';
import { readStoreConformance } from '../read-store.conformance';
import { MongoClient } from 'mongodb';
import { MONGO_DRIVER_TIMEOUTS, MongoReadStore } from './mongo-read-store';

describeWithContainers(`MongoReadStore on ${CONTAINER_IMAGES.mongo}`, () => {
  const mongo = mongoInContainer();

  readStoreConformance('mongo', async () => {
    const store = await MongoReadStore.connect(mongo.url(), 'read_store_conformance');
    return { store, cleanup: () => store.close() };
  });
});

// No container needed: nothing listens on the port, as when MongoDB is down.
describe('MongoReadStore with MongoDB out of reach', () => {
  it('fails with the driver error the bus answers as 503, not after the 30 s default', async () => {
    const failure = await MongoReadStore.connect('mongodb://127.0.0.1:9/?directConnection=true', 'down').catch((error: unknown) => error);

    expect(failure).toMatchObject({ name: 'MongoServerSelectionError' });
    expect(isOutage(failure)).toBe(true);
  }, 10_000);

  // A half-open connection (a primary gone without a FIN) needs a server to show; that the driver takes the
  // options under these names (an unknown one is ignored with a warning) is checked here.
  it('gives an operation on a dead socket a bound: the driver takes the socket timeout', () => {
    const client = new MongoClient('mongodb://127.0.0.1:9/', MONGO_DRIVER_TIMEOUTS);
    expect(client.options).toMatchObject({ socketTimeoutMS: 20_000, serverSelectionTimeoutMS: 3_000, connectTimeoutMS: 3_000 });
  });
});
