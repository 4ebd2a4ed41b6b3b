import type { StartedMongoDBContainer } from '@testcontainers/mongodb';
import { CONTAINER_IMAGES } from './container-images';
import { CONTAINER_TIMEOUT_MS } from './containers';

export interface MongoInContainer {
  /** Where tests connect, once the container has started (in a test or a `beforeAll` after this one). */
  url(): string;
}

/**
 * A MongoDB server in a container for the enclosing `describeWithContainers`: started before its tests, stopped
 * after them.
 */
export function mongoInContainer(): MongoInContainer {
  let mongo: StartedMongoDBContainer | undefined;
  beforeAll(async () => {
    // Loaded on use, as container-runtime.ts does: every test imports the test kit, few start containers.
    const { MongoDBContainer } = await import('@testcontainers/mongodb');
    mongo = await new MongoDBContainer(CONTAINER_IMAGES.mongo).start();
  }, CONTAINER_TIMEOUT_MS);
  afterAll(async () => {
    await mongo?.stop();
  });
  // The container runs a one-member replica set that advertises an address only reachable inside it.
  return { url: () => `${mongo!.getConnectionString()}/?directConnection=true` };
}
