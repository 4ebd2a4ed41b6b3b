import { readStoreConformance } from '../read-store.conformance';
import { MemoryReadStore } from './memory-read-store';

readStoreConformance('memory', async () => {
  const store = new MemoryReadStore();
  return { store, cleanup: () => store.close() };
});

describe('MemoryReadStore lookups', () => {
  const docs = Array.from({ length: 200 }, (_, i) => ({
    _id: `script-${i}`,
    domain: `d${i % 50}.example.com`,
    org_id: `org-${Math.floor(i / 50)}`,
    tags: i % 2 === 0 ? ['even', `t${i}`] : [`t${i}`],
  }));

  async function filled(indexed: boolean): Promise<MemoryReadStore> {
    const store = new MemoryReadStore();
    if (indexed) await store.ensureIndexes('scripts', [{ key: { domain: 1, org_id: 1 }, unique: true }, { key: { tags: 1 } }]);
    for (const doc of docs) await store.collection('scripts').insertOne(doc);
    return store;
  }

  it('answers { _id } alone from the map exactly as a full query would', async () => {
    const scripts = (await filled(false)).collection('scripts');
    for (const id of ['script-7', 'script-199', 'absent']) {
      const general = await scripts.findOne({ _id: { $eq: id } });
      expect(await scripts.findOne({ _id: id })).toEqual(general);
      expect(await scripts.find({ _id: id })).toEqual(await scripts.find({ _id: { $eq: id } }));
      expect(await scripts.count({ _id: id })).toBe(general ? 1 : 0);
    }
  });

  it('narrows by an index to exactly what a full scan finds', async () => {
    const plain = (await filled(false)).collection('scripts');
    const indexed = (await filled(true)).collection('scripts');
    const filters = [
      { domain: 'd7.example.com', org_id: 'org-1' },
      { domain: 'd7.example.com', org_id: 'org-2' },
      { domain: 'd7.example.com' },
      { tags: 'even', org_id: 'org-0' },
      { tags: 't33' },
      { tags: 'absent' },
      { _id: 'script-3', tags: 't3' },
      { _id: 'script-3', tags: 'even' },
    ];
    for (const filter of filters) {
      expect(await indexed.find(filter, { sort: { _id: 1 } })).toEqual(await plain.find(filter, { sort: { _id: 1 } }));
    }
  });

  it('keeps index entries in step with updates and deletes', async () => {
    const scripts = (await filled(true)).collection('scripts');
    await scripts.updateMany({ tags: 'even' }, { $set: { tags: ['was-even'] } });
    expect(await scripts.count({ tags: 'even' })).toBe(0);
    expect(await scripts.count({ tags: 'was-even' })).toBe(100);
    await scripts.deleteMany({ tags: 'was-even' });
    expect(await scripts.count({ tags: 'was-even' })).toBe(0);
    expect(await scripts.count({})).toBe(100);
  });
});
