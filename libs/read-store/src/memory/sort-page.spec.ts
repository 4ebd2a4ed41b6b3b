import type { Document, FindOptions, SortSpec } from '../read-store.port';
import { MINGO_OPTIONS, Query } from './mingo';
import { Random, randomScalar, randomValue } from './property-random';
import { directPage, pageOf } from './sort-page';

/** The page as the store used to make it: a mingo cursor over the matching documents. */
function byMingo(docs: Document[], { sort, skip, limit }: FindOptions): Document[] {
  const cursor = new Query({}, MINGO_OPTIONS).find<Document>(docs);
  if (sort) cursor.sort(sort);
  if (skip) cursor.skip(skip);
  if (limit) cursor.limit(limit);
  return cursor.all();
}

const ids = (docs: Document[]): string[] => docs.map((doc) => doc._id);

/** Documents whose sort fields hold scalars of mixed types, often equal (ties), sometimes missing. */
function randomDocuments(random: Random, count: number, scalarsOnly: boolean): Document[] {
  return Array.from({ length: count }, (_, i) => {
    const doc: Document & Record<string, unknown> = { _id: `d${String(i).padStart(3, '0')}` };
    for (const field of ['a', 'b']) {
      if (random.chance(0.85)) doc[field] = scalarsOnly ? sortableScalar(random) : randomValue(random);
    }
    if (random.chance(0.7)) doc.o = { x: scalarsOnly ? sortableScalar(random) : randomValue(random) };
    return structuredClone(doc); // as stored
  });
}

/** A scalar mingo orders simply: all but NaN. */
function sortableScalar(random: Random): unknown {
  const value = randomScalar(random);
  return Number.isNaN(value) ? 1 : value;
}

function randomOptions(random: Random): FindOptions {
  const fields = random.some(() => random.pick(['a', 'b', 'o.x', '_id', 'missing']), 3, 1);
  const sort: SortSpec = Object.fromEntries(fields.map((field) => [field, random.pick([1, -1] as const)]));
  return {
    sort: random.chance(0.9) ? sort : undefined,
    skip: random.chance(0.3) ? random.int(4) : undefined,
    limit: random.chance(0.6) ? random.int(6) : undefined,
  };
}

describe('pageOf agrees with a mingo cursor', () => {
  it('sorts, skips and limits scalars of mixed types directly, ties in the order they came', () => {
    const random = new Random(7);
    for (let run = 0; run < 2000; run += 1) {
      const docs = randomDocuments(random, random.int(25), true);
      const options = randomOptions(random);
      const direct = directPage(docs, options.sort, options.skip, options.limit);
      if (!direct) throw new Error(`fell back to mingo for ${JSON.stringify(options)}`);
      expect(ids(direct)).toEqual(ids(byMingo(docs, options)));
    }
  });

  it('gives the same pages when values need mingo (arrays, objects, NaN)', () => {
    const random = new Random(8);
    for (let run = 0; run < 1000; run += 1) {
      const docs = randomDocuments(random, random.int(25), false);
      const options = randomOptions(random);
      expect(ids(pageOf(docs, options))).toEqual(ids(byMingo(docs, options)));
    }
  });
});

describe('pageOf edge cases', () => {
  const docs = [
    { _id: 'string', v: 'a' },
    { _id: 'missing' },
    { _id: 'true', v: true },
    { _id: 'number', v: 10 },
    { _id: 'null', v: null },
    { _id: 'date', v: new Date(0) },
    { _id: 'negative', v: -1 },
  ];

  it('orders types as mingo does: null and missing, numbers, strings, booleans, dates', () => {
    expect(ids(pageOf(docs, { sort: { v: 1 } }))).toEqual(['missing', 'null', 'negative', 'number', 'string', 'true', 'date']);
    expect(ids(pageOf(docs, { sort: { v: -1 } }))).toEqual(['date', 'true', 'string', 'number', 'negative', 'missing', 'null']);
    expect(ids(pageOf(docs, { sort: { v: 1 } }))).toEqual(ids(byMingo(docs, { sort: { v: 1 } })));
  });

  it('returns the documents unsorted when only 0 or 1 match, and honours skip', () => {
    expect(pageOf([], { sort: { v: 1 }, limit: 5 })).toEqual([]);
    expect(ids(pageOf([docs[0]], { sort: { v: 1 }, limit: 5 }))).toEqual(['string']);
    expect(pageOf([docs[0]], { sort: { v: 1 }, skip: 1 })).toEqual([]);
  });

  it('takes the first page of many documents without sorting them all, to the same result', () => {
    const random = new Random(9);
    const many = randomDocuments(random, 2000, true);
    const options: FindOptions = { sort: { a: -1, _id: 1 }, skip: 3, limit: 20 };
    expect(ids(pageOf(many, options))).toEqual(ids(byMingo(many, options)));
  });

  it('leaves negative or fractional skips and limits to mingo, with its errors', () => {
    expect(directPage(docs, undefined, -1)).toBeUndefined();
    expect(directPage(docs, undefined, undefined, 1.5)).toBeUndefined();
    expect(() => pageOf(docs, { skip: -1 })).toThrow();
  });
});
