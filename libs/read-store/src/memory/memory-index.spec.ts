import type { Document, Filter } from '../read-store.port';
import { equalityValue, MemoryIndex, residualFilter } from './memory-index';
import { MemoryReadStore } from './memory-read-store';
import { MINGO_OPTIONS, Query } from './mingo';
import { Random, randomDocument, randomScalar, SCALARS } from './property-random';

/** The values an index lookup takes (strings, numbers, booleans), with NaN and -0 among them. */
const LOOKUP_VALUES = SCALARS.filter((value) => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean');

describe('residualFilter', () => {
  const index = new MemoryIndex({ key: { store_id: 1, status: 1, 'o.x': 1 } });

  it('drops the top-level equality clauses the lookup fixed, and nothing else', () => {
    expect(residualFilter({ store_id: 's1', status: 'new', type: 'unknown' }, index)).toEqual({ type: 'unknown' });
    expect(residualFilter({ store_id: 's1', status: { $in: ['new'] }, 'o.x': 1 }, index)).toEqual({ status: { $in: ['new'] }, 'o.x': 1 });
    expect(residualFilter({ store_id: null, status: 'new' }, index)).toEqual({ store_id: null });
  });

  it('leaves the caller’s filter as it was', () => {
    const filter = { store_id: 's1', status: 'new' };
    residualFilter(filter, index);
    expect(filter).toEqual({ store_id: 's1', status: 'new' });
  });
});

describe('equalityValue', () => {
  it('finds a field fixed at the top or in a top-level $and (a cursor page), and nothing looser', () => {
    expect(equalityValue({ store_id: 's1' }, 'store_id')).toBe('s1');
    expect(equalityValue({ $and: [{ org_id: 'o1', store_id: 's1' }, { _id: { $lt: 'x' } }] }, 'store_id')).toBe('s1');
    expect(equalityValue({ $or: [{ store_id: 's1' }] }, 'store_id')).toBeUndefined();
    expect(equalityValue({ store_id: { $in: ['s1'] } }, 'store_id')).toBeUndefined();
  });
});

/**
 * An indexed lookup checks only what the index left undecided: across random documents (arrays, nested arrays,
 * NaN, -0, mixed types, missing fields) it must find exactly what mingo finds scanning every document.
 */
describe('indexed lookups against mingo', () => {
  const byMingo = (docs: Document[], filter: Filter): string[] => {
    const query = new Query(filter, MINGO_OPTIONS);
    return docs.filter((doc) => query.test(doc)).map((doc) => doc._id).sort();
  };

  it('finds what a full mingo scan finds, for equality on indexed fields plus other clauses', async () => {
    const random = new Random(1515);
    for (let round = 0; round < 20; round += 1) {
      const docs = Array.from({ length: 60 }, (_, i) => randomDocument(random, `d${i}`));
      const store = new MemoryReadStore();
      await store.ensureIndexes('docs', [{ key: { a: 1 } }, { key: { b: 1, c: 1 } }, { key: { 'o.x': 1 } }]);
      const collection = store.collection('docs');
      for (const doc of docs) await collection.insertOne(doc);
      for (let query = 0; query < 30; query += 1) {
        const filter: Filter = {};
        if (random.chance(0.7)) filter.a = random.pick(LOOKUP_VALUES);
        if (random.chance(0.6)) filter.b = random.pick(LOOKUP_VALUES);
        if (random.chance(0.6)) filter.c = random.pick(LOOKUP_VALUES);
        if (random.chance(0.3)) filter['o.x'] = random.pick(LOOKUP_VALUES);
        if (random.chance(0.4)) filter.list = { $ne: randomScalar(random) };
        const found = (await collection.find(filter)).map((doc) => doc._id).sort();
        expect({ filter, found }).toEqual({ filter, found: byMingo(docs, filter) });
        const first = await collection.findOne(filter);
        expect(first === null ? null : found.includes(first._id)).toBe(found.length === 0 ? null : true);
      }
    }
  });
});
