import type { AnyDocument, ReadCollection } from '../read-store.port';
import { MemoryReadStore } from './memory-read-store';
import { Random } from './property-random';
import { WriteBackCollection } from './write-back-collection';

type Operation = (collection: ReadCollection) => Promise<unknown>;

/** What an operation answered, or the kind of error it threw: both sides must agree on it. */
async function outcome(operation: Operation, collection: ReadCollection): Promise<unknown> {
  try {
    return { value: await operation(collection) };
  } catch (error) {
    return { error: (error as Error).name };
  }
}

/** Random writes and reads of a few documents, as a projection replaying events makes them. */
function randomOperation(random: Random, step: number): Operation {
  const id = `doc-${random.int(4)}`;
  const guard = { _id: id, $or: [{ _position: { $lt: step } }, { _position: { $exists: false } }] };
  const upsert = random.chance(0.5);
  const nearby = step + random.int(3) - 1;
  switch (random.int(10)) {
    case 0:
      return (c) => c.updateOne(guard, { $set: { _position: step, name: `n${step}` }, $inc: { count: 1 } }, { upsert });
    case 1:
      return (c) => c.updateOne({ _id: id, count: { $gte: 2 } }, { $push: { seen: step }, $setOnInsert: { created: step } }, { upsert });
    case 2:
      return (c) => c.updateOne({ _id: id }, { $set: { _position: nearby } }, { upsert });
    case 3:
      return (c) => c.findOne({ _id: id });
    case 4:
      return (c) => c.findOne({ _id: id, count: { $gt: 1 } });
    case 5:
      return (c) => c.upsert({ _id: id, name: `replaced ${step}`, count: 0 });
    case 6:
      return (c) => c.insertOne({ _id: id, count: 10 });
    case 7:
      return (c) => c.updateMany({ count: { $gte: 1 } }, { $inc: { count: 100 } });
    case 8:
      return (c) => c.updateOne(guard, { $set: { _position: step, tags: [step, `t${nearby}`] } }, { upsert });
    default:
      return (c) => c.find({ count: { $exists: true } }, { sort: { _id: 1 } });
  }
}

describe('WriteBackCollection', () => {
  it('answers every operation as the collection itself would, and leaves the same documents after a flush', async () => {
    for (let seed = 1; seed <= 200; seed += 1) {
      const random = new Random(seed);
      const direct = new MemoryReadStore().collection<AnyDocument>('docs');
      const target = new MemoryReadStore().collection<AnyDocument>('docs');
      const batched = new WriteBackCollection(target);
      for (let step = 1; step <= 30; step += 1) {
        const operation = randomOperation(random, step);
        const expected = await outcome(operation, direct);
        expect({ seed, step, outcome: await outcome(operation, batched) }).toEqual({ seed, step, outcome: expected });
        if (random.chance(0.1)) await batched.flush();
      }
      await batched.flush();
      expect(await target.find({}, { sort: { _id: 1 } })).toEqual(await direct.find({}, { sort: { _id: 1 } }));
    }
  });

  it('writes each changed document once per flush, whatever number of updates it absorbed', async () => {
    const store = new MemoryReadStore();
    const target = store.collection('docs');
    const upserts: string[] = [];
    const counted: ReadCollection = Object.assign(Object.create(target) as ReadCollection, {
      upsert: async (doc: AnyDocument) => {
        upserts.push(doc._id);
        await target.upsert(doc);
      },
    });
    const batched = new WriteBackCollection(counted);
    for (let i = 0; i < 10; i += 1) {
      await batched.updateOne({ _id: 'a' }, { $inc: { count: 1 } }, { upsert: true });
      await batched.updateOne({ _id: 'b' }, { $inc: { count: 2 } }, { upsert: true });
    }
    await batched.findOne({ _id: 'c' }); // read, not changed: not written
    expect(await target.count({})).toBe(0);
    await batched.flush();
    expect(upserts.sort()).toEqual(['a', 'b']);
    expect(await target.find({}, { sort: { _id: 1 } })).toEqual([
      { _id: 'a', count: 10 },
      { _id: 'b', count: 20 },
    ]);
    await batched.flush();
    expect(upserts).toHaveLength(2);
  });

  it('applies a guard given as a predicate as the filter it stands for', async () => {
    const batched = new WriteBackCollection(new MemoryReadStore().collection('docs'));
    const below = (position: number) => (doc: AnyDocument) => !((doc._position as number) >= position);
    await batched.updateById('a', { $set: { _position: 5, v: 'five' } }, { upsert: true, when: below(5) });
    expect(await batched.updateById('a', { $set: { _position: 4, v: 'four' } }, { when: below(4) })).toMatchObject({ matched: 0 });
    await expect(batched.updateById('a', { $set: { _position: 5 } }, { upsert: true, when: below(5) })).rejects.toMatchObject({ name: 'DuplicateKeyError' });
    expect(await batched.findOne({ _id: 'a' })).toEqual({ _id: 'a', _position: 5, v: 'five' });
  });

  it('changes a document it made in place, yet what was read or written before keeps what it was', async () => {
    const target = new MemoryReadStore().collection('docs');
    const batched = new WriteBackCollection(target);
    await batched.updateOne({ _id: 'a' }, { $set: { v: 1, tags: ['first'] } }, { upsert: true });
    const read = await batched.findOne({ _id: 'a' });
    const tags = ['second'];
    await batched.updateOne({ _id: 'a' }, { $set: { v: 2, tags } }); // the batch's own version: changed in place
    tags.push('added by the caller later');
    expect(read).toEqual({ _id: 'a', v: 1, tags: ['first'] });
    await batched.flush();
    await batched.updateOne({ _id: 'a' }, { $set: { v: 3 } }); // written since: a new version again
    expect(await target.findOne({ _id: 'a' })).toEqual({ _id: 'a', v: 2, tags: ['second'] });
    await batched.flush();
    expect(await target.findOne({ _id: 'a' })).toEqual({ _id: 'a', v: 3, tags: ['second'] });
  });
});
