import { readStoreConformance } from '../read-store.conformance';
import { DuplicateKeyError, type ReadCollection } from '../read-store.port';
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

describe('MemoryReadStore versions and copies', () => {
  type Token = { _id: string; prefix: string; owner: { team: string; contact: { mail: string } }; uses?: number; _position?: number };
  const token: Token = { _id: 't1', prefix: 'pss_a', owner: { team: 'web', contact: { mail: 'a@example.com' } } };

  async function tokens(): Promise<ReadCollection<Token>> {
    const store = new MemoryReadStore();
    await store.ensureIndexes('tokens', [{ key: { prefix: 1 }, unique: true }, { key: { 'owner.contact.mail': 1 } }]);
    const collection = store.collection<Token>('tokens');
    await collection.insertOne(token);
    return collection;
  }

  it('keeps a document a caller holds as it was read, through later nested updates', async () => {
    const collection = await tokens();
    const held = await collection.findOne({ _id: 't1' });
    await collection.updateOne({ _id: 't1' }, { $set: { 'owner.team': 'payments', 'owner.contact.mail': 'b@example.com' }, $inc: { uses: 1 } });
    expect(held).toEqual(token);
    expect(await collection.findOne({ _id: 't1' })).toEqual({
      ...token,
      owner: { team: 'payments', contact: { mail: 'b@example.com' } },
      uses: 1,
    });
  });

  it('keeps the store as it was when a caller changes what it read', async () => {
    const collection = await tokens();
    const [read] = await collection.find({ prefix: 'pss_a' }, { sort: { _id: 1 }, limit: 1 });
    read.owner.contact.mail = 'changed@example.com';
    expect(await collection.findOne({ _id: 't1' })).toEqual(token);
  });

  it('hands frozen readers the stored version itself, until an update makes the next one', async () => {
    const collection = await tokens();
    const first = await collection.findOneFrozen({ _id: 't1' });
    expect(await collection.findOneFrozen({ prefix: 'pss_a' })).toBe(first);
    expect((await collection.findFrozen({ prefix: 'pss_a' }))[0]).toBe(first);
    expect(Object.isFrozen(first?.owner.contact)).toBe(true);
    await collection.updateOne({ _id: 't1' }, { $set: { 'owner.contact.mail': 'b@example.com' }, $inc: { uses: 1 } });
    const next = await collection.findOneFrozen({ _id: 't1' });
    expect(next).not.toBe(first);
    expect(next).toEqual({ ...token, owner: { team: 'web', contact: { mail: 'b@example.com' } }, uses: 1 });
    expect(first).toEqual(token);
    // Copies for the other readers stay the caller's own to change.
    const copy = await collection.findOne({ _id: 't1' });
    if (copy) copy.owner.team = 'mine';
    expect(await collection.findOneFrozen({ _id: 't1' })).toBe(next);
    expect(next?.owner.team).toBe('web');
  });

  it('hands out a frozen copy of a version holding a value freezing does not fix', async () => {
    const store = new MemoryReadStore();
    const collection = store.collection<{ _id: string; at: Date }>('dated');
    await collection.insertOne({ _id: 'd1', at: new Date(0) });
    const read = await collection.findOneFrozen({ _id: 'd1' });
    expect(Object.isFrozen(read)).toBe(true);
    expect(await collection.findOneFrozen({ _id: 'd1' })).not.toBe(read);
    read?.at.setTime(1000);
    expect(await collection.findOne({ _id: 'd1' })).toEqual({ _id: 'd1', at: new Date(0) });
  });

  it('re-indexes exactly the updates that touch an indexed field', async () => {
    const collection = await tokens();
    await collection.updateOne({ _id: 't1' }, { $inc: { uses: 1 } });
    await collection.updateOne({ _id: 't1' }, { $set: { 'owner.contact.mail': 'b@example.com' } });
    expect(await collection.count({ 'owner.contact.mail': 'b@example.com' })).toBe(1);
    await collection.insertOne({ ...token, _id: 't2', prefix: 'pss_b' });
    await expect(collection.updateOne({ _id: 't2' }, { $set: { prefix: 'pss_a' } })).rejects.toBeInstanceOf(DuplicateKeyError);
    // $rename writes the field its value names: mingo applies it, and the index must see the new key.
    await collection.updateOne({ _id: 't2' }, { $set: { spare: 'pss_c' } });
    await collection.updateOne({ _id: 't2' }, { $rename: { spare: 'prefix' } });
    expect(await collection.findOne({ prefix: 'pss_c' })).toMatchObject({ _id: 't2' });
    expect(await collection.findOne({ prefix: 'pss_b' })).toBeNull();
  });

  it('applies an event once per document, as applyOnce filters it', async () => {
    const collection = await tokens();
    const applyAt = (position: number) =>
      collection.updateOne(
        { _id: 't1', $or: [{ _position: { $lt: position } }, { _position: { $exists: false } }] },
        { $inc: { uses: 1 }, $set: { _position: position } },
      );
    expect(await applyAt(5)).toEqual({ matched: 1, modified: 1, upserted: false });
    expect(await applyAt(5)).toEqual({ matched: 0, modified: 0, upserted: false });
    expect(await applyAt(4)).toEqual({ matched: 0, modified: 0, upserted: false });
    expect(await applyAt(6)).toEqual({ matched: 1, modified: 1, upserted: false });
    expect(await collection.findOne({ _id: 't1' })).toMatchObject({ uses: 2, _position: 6 });
  });

  it('applies $setOnInsert and $inc from zero only when the upsert inserts', async () => {
    const collection = await tokens();
    const upsert = () =>
      collection.updateOne({ _id: 't9', prefix: 'pss_z' }, { $inc: { uses: 1 }, $setOnInsert: { 'owner.team': 'new' } }, { upsert: true });
    expect(await upsert()).toEqual({ matched: 0, modified: 0, upserted: true });
    expect(await upsert()).toEqual({ matched: 1, modified: 1, upserted: false });
    expect(await collection.findOne({ _id: 't9' })).toEqual({ _id: 't9', prefix: 'pss_z', uses: 2, owner: { team: 'new' } });
  });
});
