import type { Document, Filter, FindOptions, SortSpec } from '../read-store.port';
import { MemoryIndex } from './memory-index';
import { MemoryReadStore } from './memory-read-store';
import { orderedPage } from './ordered-page';
import { Random } from './property-random';

/** Values the ordered index keeps (strings, numbers, booleans, null, dates) and, rarely, ones only mingo orders. */
function sortValue(random: Random, unorderable: boolean): unknown {
  if (unorderable && random.chance(0.02)) return random.pick([[1, 2], { x: 1 }, NaN, []]);
  return random.pick([null, undefined, 1, 2, -0, 2.5, 'a', 'b', 'B', '', true, false, new Date(1000), new Date(0), 3, 'c']);
}

function randomDoc(random: Random, id: string, unorderable: boolean): Document {
  const doc: Record<string, unknown> = { _id: id, group: random.pick(['g1', 'g2', 'g3', 1, true]), kind: random.pick(['x', 'y', 'z']) };
  for (const field of ['at', 'rank']) {
    const value = sortValue(random, unorderable);
    if (value !== undefined) doc[field] = value;
  }
  return doc as Document;
}

const INDEXES = [
  { key: { group: 1, at: -1, _id: -1 } },
  { key: { group: 1, _id: 1 } },
  { key: { group: 1, kind: 1 } },
] as const;

function randomQuery(random: Random): { filter: Filter; options: FindOptions } {
  const group = random.pick(['g1', 'g2', 'g3', 1, true, 'absent']);
  let filter: Filter = { group };
  if (random.chance(0.5)) filter.kind = random.pick(['x', 'y']);
  if (random.chance(0.3)) filter.rank = { $gte: random.pick([1, 'a', null]) };
  if (random.chance(0.3)) filter = { $and: [filter, { _id: { $lt: `d${random.int(80)}` } }] };
  const sort: SortSpec = random.pick<SortSpec>([
    { at: -1, _id: -1 },
    { at: 1, _id: 1 },
    { at: -1, _id: 1 },
    { _id: 1 },
    { _id: -1 },
    { rank: 1, _id: 1 },
  ]);
  return { filter, options: { sort, limit: random.pick([0, 1, 3, 10]), skip: random.pick([0, 0, 2]) } };
}

describe('orderedPage', () => {
  it('finds the page a full match and sort finds, through inserts, updates and deletes', async () => {
    const random = new Random(4242);
    for (let round = 0; round < 12; round += 1) {
      const unorderable = round % 3 === 2;
      const indexed = new MemoryReadStore();
      const plain = new MemoryReadStore();
      await indexed.ensureIndexes('docs', [...INDEXES]);
      for (let i = 0; i < 80; i += 1) {
        const doc = randomDoc(random, `d${i}`, unorderable);
        await indexed.collection('docs').insertOne(doc);
        await plain.collection('docs').insertOne(doc);
      }
      for (let step = 0; step < 60; step += 1) {
        const { filter, options } = randomQuery(random);
        const expected = await plain.collection('docs').find(filter, options);
        expect({ filter, options, found: await indexed.collection('docs').find(filter, options) }).toEqual({ filter, options, found: expected });
        const id = `d${random.int(90)}`;
        const change = random.pick([
          async (store: MemoryReadStore) => store.collection('docs').updateOne({ _id: id }, { $set: { at: sortValue(new Random(step), unorderable) ?? null } }),
          async (store: MemoryReadStore) => store.collection('docs').updateOne({ _id: id }, { $set: { kind: 'y', group: 'g2' } }),
          async (store: MemoryReadStore) => store.collection('docs').deleteMany({ _id: id }),
          async (store: MemoryReadStore) => store.collection('docs').upsert(randomDoc(new Random(step), id, false)),
        ]);
        await change(indexed);
        await change(plain);
      }
    }
  });

  it('walks the order only where it pays: a sort the index holds and many candidates per wanted document', () => {
    const ordered = new MemoryIndex({ key: { group: 1, at: -1, _id: -1 } });
    const byKind = new MemoryIndex({ key: { group: 1, kind: 1 } });
    const docs = new Map<string, Document>();
    for (let i = 0; i < 100; i += 1) {
      const doc = { _id: `d${String(i).padStart(3, '0')}`, group: 'g', kind: i % 2 === 0 ? 'x' : 'y', at: i };
      docs.set(doc._id, doc);
      for (const index of [ordered, byKind]) index.move(doc._id, new Map(), index.keysOf(doc));
    }
    const newest = orderedPage([ordered, byKind], docs, { group: 'g', kind: 'x' }, { sort: { at: -1, _id: -1 }, limit: 3 });
    expect(newest?.map((doc) => doc._id)).toEqual(['d098', 'd096', 'd094']);
    const oldest = orderedPage([ordered, byKind], docs, { group: 'g' }, { sort: { at: 1, _id: 1 }, limit: 2, skip: 1 });
    expect(oldest?.map((doc) => doc._id)).toEqual(['d001', 'd002']);
    // Not this index's order, a mixed direction, or 50 candidates for 30 wanted: left to match-and-sort.
    expect(orderedPage([ordered, byKind], docs, { group: 'g' }, { sort: { _id: -1 }, limit: 3 })).toBeUndefined();
    expect(orderedPage([ordered, byKind], docs, { group: 'g' }, { sort: { at: -1, _id: 1 }, limit: 3 })).toBeUndefined();
    expect(orderedPage([ordered, byKind], docs, { group: 'g', kind: 'x' }, { sort: { at: -1, _id: -1 }, limit: 30 })).toBeUndefined();
  });

  it('gives up the order for good once a document holds a value only mingo sorts', () => {
    const ordered = new MemoryIndex({ key: { group: 1, at: 1, _id: 1 } });
    const place = (doc: Document & Record<string, unknown>) => ordered.move(doc._id, new Map(), ordered.keysOf(doc));
    place({ _id: 'a', group: 'g', at: 1 });
    expect(ordered.orderedIds({ group: 'g' }, { at: 1, _id: 1 })?.entries.map((entry) => entry.id)).toEqual(['a']);
    place({ _id: 'b', group: 'g', at: [2, 3] });
    expect(ordered.orderedIds({ group: 'g' }, { at: 1, _id: 1 })).toBeUndefined();
  });
});
