import { MongoClient } from 'mongodb';
import { isOutage } from '@pss/bus';
import { CONTAINER_IMAGES, describeWithContainers, mongoInContainer } from '@pss/testkit';
import { fileStoreConformance } from '../file-store.conformance';
import { FILES_BUCKET, GridFsFileStore } from './gridfs-file-store';

describeWithContainers(`GridFsFileStore on ${CONTAINER_IMAGES.mongo}`, () => {
  const mongo = mongoInContainer();

  let tests = 0;
  fileStoreConformance('gridfs', async () => {
    const database = `files_conformance_${++tests}`;
    const store = await GridFsFileStore.connect(mongo.url(), database);
    return { store, cleanup: () => store.close() };
  });

  it('keeps one revision per key after a put replaces a file', async () => {
    const store = await GridFsFileStore.connect(mongo.url(), 'files_revisions');
    const client = await MongoClient.connect(mongo.url());
    try {
      await store.put('a.pdf', Buffer.from('1'), 'application/pdf');
      await store.put('a.pdf', Buffer.from('2'), 'application/pdf');
      const stored = await client.db('files_revisions').collection(`${FILES_BUCKET}.files`).find({ filename: 'a.pdf' }).toArray();
      expect(stored).toHaveLength(1);
    } finally {
      await client.close();
      await store.close();
    }
  });
});

describe('GridFsFileStore in a MongoDB outage', () => {
  // Nothing listens on port 9 (discard): the driver's own 30 s server selection would outlast this test's 10 s.
  it('gives up within seconds with an error the service answers 503', async () => {
    const failure = await GridFsFileStore.connect('mongodb://127.0.0.1:9/?directConnection=true', 'files_outage').catch((error: unknown) => error);

    expect(isOutage(failure)).toBe(true);
  }, 10_000);
});
