import type { Document, Filter } from '../read-store.port';
import { compileFilter, type ClauseFallback } from './filter-matcher';
import { MINGO_OPTIONS, Query } from './mingo';
import { Random, randomDocument, randomScalar, randomValue } from './property-random';

const byMingo = (filter: Filter) => {
  const query = new Query(filter, MINGO_OPTIONS);
  return (doc: Document): boolean => query.test(doc);
};

/** A fallback that fails the test: the filter should have been evaluated without mingo. */
const noFallback: ClauseFallback = (field) => {
  throw new Error(`clause ${field} fell back to mingo`);
};

const FIELDS = ['a', 'b', 'c', 'o', 'list', 'missing', 'o.x', 'o.y', 'o.x.y', 'list.x', 'list.y', 'a.0', 'list.0.x'];
const TOP_LEVEL_FIELDS = FIELDS.filter((field) => !field.includes('.'));

/** A condition the direct evaluator handles: equality, comparisons, $in/$nin over scalars, top-level $exists. */
function directCondition(random: Random, field: string): unknown {
  switch (random.int(8)) {
    case 0:
      return randomScalar(random);
    case 1:
      return randomValue(random); // arrays and objects: equality of whole values
    case 2:
      return { [random.pick(['$eq', '$ne'])]: randomValue(random) };
    case 3:
      return { [random.pick(['$gt', '$gte', '$lt', '$lte'])]: randomScalar(random) };
    case 4:
      return { $gte: randomScalar(random), $lt: randomScalar(random) };
    case 5: // dates in a list are left to mingo
      return { [random.pick(['$in', '$nin'])]: random.some(() => randomScalar(random), 3).filter((v) => !(v instanceof Date)) };
    case 6:
      return field.includes('.') ? { $ne: null } : { $exists: random.chance(0.5) };
    default:
      return { $ne: randomScalar(random), [random.pick(['$gt', '$lte'])]: randomScalar(random) };
  }
}

/** A condition only mingo handles. */
function mingoOnlyCondition(random: Random): unknown {
  return random.pick([
    { $regex: '^[ab]' },
    /1/,
    { $elemMatch: { x: randomScalar(random) } },
    { $size: random.int(3) },
    { $not: { $gt: 1 } },
    { $in: [/a/, randomScalar(random)] },
    { $all: [randomScalar(random)] },
    { $type: 'string' },
  ]);
}

function randomFilter(random: Random, depth: number, mingoOnly: boolean): Filter {
  const filter: Filter = {};
  for (let clause = random.int(3) + 1; clause > 0; clause -= 1) {
    const roll = random.int(10);
    if (roll === 0 && depth < 2) {
      filter[random.pick(['$and', '$or'])] = random.some(() => randomFilter(random, depth + 1, mingoOnly), 3);
    } else if (mingoOnly && roll === 1) {
      filter[random.pick(FIELDS)] = mingoOnlyCondition(random);
    } else if (mingoOnly && roll === 2) {
      filter[random.pick(FIELDS.filter((field) => field.includes('.')))] = { $exists: random.chance(0.5) };
    } else {
      const field = random.pick(roll < 5 ? TOP_LEVEL_FIELDS : FIELDS);
      filter[field] = directCondition(random, field);
    }
  }
  return filter;
}

describe('compileFilter agrees with mingo', () => {
  const random = new Random(20261122);
  const docs = Array.from({ length: 60 }, (_, i) => structuredClone(randomDocument(random, `d${i}`))); // as stored

  it('on random simple filters, evaluated without mingo', () => {
    let matched = 0;
    for (let run = 0; run < 1500; run += 1) {
      const filter = randomFilter(random, 0, false);
      const matches = compileFilter(filter, noFallback);
      const mingoMatches = byMingo(filter);
      for (const doc of docs) {
        const expected = mingoMatches(doc);
        if (matches(doc) !== expected) throw new Error(`${JSON.stringify(filter)} on ${JSON.stringify(doc)}: mingo says ${expected}`);
        if (expected) matched += 1;
      }
    }
    // Both answers occur often enough for the comparison to mean something.
    expect(matched).toBeGreaterThan(1500 * docs.length * 0.05);
    expect(matched).toBeLessThan(1500 * docs.length * 0.95);
  });

  it('on random filters mixing in clauses that fall back to mingo', () => {
    for (let run = 0; run < 800; run += 1) {
      const filter = randomFilter(random, 0, true);
      const matches = compileFilter(filter);
      const mingoMatches = byMingo(filter);
      for (const doc of docs) {
        if (matches(doc) !== mingoMatches(doc)) throw new Error(`${JSON.stringify(filter)} on ${JSON.stringify(doc)}`);
      }
    }
  });
});

describe('compileFilter edge cases', () => {
  const docs: Array<Document & Record<string, unknown>> = [
    { _id: 'missing' },
    { _id: 'null', v: null },
    { _id: 'number', v: 5 },
    { _id: 'string', v: '5' },
    { _id: 'array', v: [1, 5, 'x'] },
    { _id: 'nested', v: [[5]] },
    { _id: 'object', v: { w: 5 } },
    { _id: 'objects', v: [{ w: 5 }, { w: null }, {}] },
    { _id: 'date', v: new Date(5) },
  ];
  const matching = (filter: Filter): string[] => {
    const matches = compileFilter(filter, noFallback);
    const found = docs.filter((doc) => matches(doc)).map((doc) => doc._id);
    expect(found).toEqual(docs.filter(byMingo(filter)).map((doc) => doc._id));
    return found;
  };

  it('matches null against null and missing alike, but not against an empty array element', () => {
    expect(matching({ v: null })).toEqual(['missing', 'null']);
    expect(matching({ v: { $ne: null } })).toEqual(['number', 'string', 'array', 'nested', 'object', 'objects', 'date']);
    expect(matching({ v: { $in: [null] } })).toEqual(['missing', 'null']);
  });

  it('matches a scalar inside an array, but not inside a nested array at the top level', () => {
    expect(matching({ v: 5 })).toEqual(['number', 'array']);
    expect(matching({ v: 'x' })).toEqual(['array']);
    expect(matching({ v: [[5]] })).toEqual(['nested']);
  });

  it('never compares across types', () => {
    expect(matching({ v: { $lt: 10 } })).toEqual(['number', 'array']);
    expect(matching({ v: { $gte: '' } })).toEqual(['string', 'array']);
    expect(matching({ v: { $lt: null } })).toEqual([]);
    expect(matching({ v: { $lte: null } })).toEqual(['null']);
    expect(matching({ v: { $gt: new Date(0) } })).toEqual(['date']);
  });

  it('follows dotted paths into objects and arrays of objects', () => {
    // Where mingo differs from MongoDB (it finds the 5 inside [[5]]; an array of scalars has no null `w`), the
    // direct evaluator keeps mingo's answer: the store's behaviour does not change.
    expect(matching({ 'v.w': 5 })).toEqual(['nested', 'object', 'objects']);
    expect(matching({ 'v.w': null })).toEqual(['missing', 'null', 'number', 'string', 'objects', 'date']);
    expect(matching({ 'v.w': { $gt: 4 } })).toEqual(['nested', 'object', 'objects']);
  });

  it('tells missing from present with $exists, null counting as present', () => {
    expect(matching({ v: { $exists: false } })).toEqual(['missing']);
    expect(matching({ v: { $exists: true } })).toHaveLength(docs.length - 1);
  });

  it('reads inherited names as missing fields', () => {
    expect(matching({ constructor: { $exists: true } })).toEqual([]);
    expect(matching({ toString: null })).toHaveLength(docs.length);
  });

  it('combines with $and and $or, an empty $or matching nothing', () => {
    expect(matching({ $or: [{ v: 5 }, { v: null }] })).toEqual(['missing', 'null', 'number', 'array']);
    expect(matching({ $and: [{ v: { $gt: 1 } }, { v: { $lt: 2 } }] })).toEqual(['array']);
    expect(matching({ $or: [] })).toEqual([]);
  });

  it('evaluates the applyOnce filter: not yet applied when the position is lower or missing', () => {
    const stored = [{ _id: 't', _position: 7 }, { _id: 't' }, { _id: 't', _position: '9' }];
    const notYetApplied = (position: number) =>
      compileFilter({ _id: 't', $or: [{ _position: { $lt: position } }, { _position: { $exists: false } }] }, noFallback);
    expect(stored.map((doc) => notYetApplied(8)(doc))).toEqual([true, true, false]);
    expect(stored.map((doc) => notYetApplied(7)(doc))).toEqual([false, true, false]);
  });

  it('leaves regexes, $elemMatch, dotted $exists and unknown operators to mingo, with its errors', () => {
    const fellBack: string[] = [];
    const recording: ClauseFallback = (field) => {
      fellBack.push(field);
      return () => true;
    };
    compileFilter({ a: /x/, b: { $regex: 'x' }, c: { $elemMatch: { w: 1 } }, 'd.e': { $exists: true }, f: { $in: [{ w: 1 }] }, g: 1 }, recording);
    expect(fellBack).toEqual(['a', 'b', 'c', 'd.e', 'f']);
    expect(() => compileFilter({ v: { $bogus: 1 } })).toThrow(/unknown query operator/);
    expect(() => compileFilter({ $nor: 'not an array' })).toThrow();
  });
});
