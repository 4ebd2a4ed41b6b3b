import type { Document, UpdateSpec } from '../read-store.port';
import { applyUpdate } from './apply-update';
import { copyOnWriteUpdate, NEEDS_MINGO } from './copy-on-write-update';
import { mingoUpdate, type MingoModifier } from './mingo';
import { deepFreeze, Random, randomDocument, randomValue } from './property-random';

/*
 * Documents go through structuredClone first, as the store stores them: under jest that makes them objects of
 * another realm than the test's own, which the direct path must handle as well (and mingo's isEqual tells apart).
 */
const stored = <T>(doc: T): T => deepFreeze(structuredClone(doc));

/** mingo's answer, as the store used to get it: the changed deep copy, or undefined when nothing changed. */
function byMingo(doc: Document, update: UpdateSpec): Document | undefined {
  const next = structuredClone(doc);
  return mingoUpdate(next, update as MingoModifier, undefined, undefined, { cloneMode: 'deep' }).length > 0 ? next : undefined;
}

/** Paths through every shape the documents have: plain fields, objects, null or scalar parents, arrays. */
const PATHS = ['a', 'b', 'c', 'fresh', 'o', 'o.x', 'o.y', 'o.x.z', 'a.x', 'new.deep.path', 'list', 'list.0', 'list.x'];
const OPERATORS = ['$set', '$unset', '$inc', '$max', '$min', '$push', '$addToSet'] as const;

function randomOperand(random: Random, operator: (typeof OPERATORS)[number]): unknown {
  if (operator === '$unset') return '';
  if (operator === '$inc') return random.chance(0.95) ? random.pick([1, -2, 0.5, 0]) : 'one'; // mingo refuses 'one'
  if ((operator === '$push' || operator === '$addToSet') && random.chance(0.1)) return { $each: [randomValue(random), randomValue(random)] };
  return randomValue(random);
}

function randomUpdate(random: Random): UpdateSpec {
  const update: UpdateSpec = {};
  for (const operator of random.some(() => random.pick(OPERATORS), 2, 1)) {
    update[operator] = Object.fromEntries(random.some(() => [random.pick(PATHS), randomOperand(random, operator)], 3, 1));
  }
  return update;
}

describe('copyOnWriteUpdate agrees with mingo', () => {
  it('on random documents and updates, leaving the current version untouched', () => {
    const random = new Random(61);
    const outcomes = { direct: 0, deferred: 0, refused: 0, unchanged: 0 };
    for (let run = 0; run < 6000; run += 1) {
      const doc = stored(randomDocument(random, `d${run}`));
      const update = randomUpdate(random);
      const label = `${JSON.stringify(update)} on ${JSON.stringify(doc)}`;
      let expected: Document | undefined;
      try {
        expected = byMingo(doc, update);
      } catch {
        // mingo refuses it (conflicting paths, $inc by a non-number): the direct path must hand it over.
        if (copyOnWriteUpdate(doc, update) !== NEEDS_MINGO) throw new Error(`applied what mingo refuses: ${label}`);
        expect(() => applyUpdate(doc, update)).toThrow();
        outcomes.refused += 1;
        continue;
      }
      const direct = copyOnWriteUpdate(doc, update); // throws on any write into the frozen document
      if (direct === NEEDS_MINGO) outcomes.deferred += 1;
      else {
        try {
          expect(direct).toStrictEqual(expected);
        } catch (error) {
          throw new Error(`${label}\n${String(error)}`);
        }
        if (direct === undefined) outcomes.unchanged += 1;
        else outcomes.direct += 1;
      }
      expect(applyUpdate(doc, update)).toStrictEqual(expected);
    }
    // Most updates stay on the direct path; mingo gets those through arrays or scalars, with $each and its kin,
    // and those it refuses.
    expect(outcomes.direct + outcomes.unchanged).toBeGreaterThan(outcomes.deferred * 1.5);
    expect(outcomes.unchanged).toBeGreaterThan(100);
    expect(outcomes.refused).toBeGreaterThan(100);
  });

  it('shares untouched values with the current version and copies the changed branches', () => {
    const current = stored({ _id: 'a', keep: { deep: [1] }, owner: { team: 'web', contact: { mail: 'x' } } });
    const next = copyOnWriteUpdate(current, { $set: { 'owner.team': 'pay' } }) as typeof current;
    expect(next).toEqual({ _id: 'a', keep: { deep: [1] }, owner: { team: 'pay', contact: { mail: 'x' } } });
    expect(next.keep).toBe(current.keep);
    expect(next.owner.contact).toBe(current.owner.contact);
    expect(next.owner).not.toBe(current.owner);
  });
});

describe('copyOnWriteUpdate edge cases', () => {
  const doc = stored({ _id: 'a', n: 1, s: 'x', zero: 0, nil: null, obj: { k: 1 }, list: [1, 2] } as Document & Record<string, unknown>);
  /** The direct answer, checked against mingo's unless it defers to mingo. */
  const apply = (update: UpdateSpec) => {
    const direct = copyOnWriteUpdate(doc, update);
    if (direct !== NEEDS_MINGO) expect(direct).toStrictEqual(byMingo(doc, update));
    return direct;
  };

  it('$push and $addToSet give a new array and leave the current one as it was; $addToSet adds nothing already there', () => {
    expect(apply({ $push: { list: 2 } })).toMatchObject({ list: [1, 2, 2] });
    expect(apply({ $addToSet: { list: 3, fresh: 'a' } })).toMatchObject({ list: [1, 2, 3], fresh: ['a'] });
    expect(apply({ $addToSet: { list: 2 } })).toBeUndefined();
    expect(apply({ $push: { s: 1 } })).toBeUndefined(); // mingo leaves a field that is no array alone
    expect(doc.list).toEqual([1, 2]);
  });

  it('$inc starts a missing field from zero and leaves non-numbers alone', () => {
    expect(apply({ $inc: { fresh: 2, 'new.count': 1 } })).toMatchObject({ fresh: 2, new: { count: 1 } });
    expect(apply({ $inc: { s: 1, nil: 1 } })).toBeUndefined();
    expect(apply({ $inc: { n: 0 } })).toBeUndefined();
    expect(apply({ $inc: { n: 'one' } })).toBe(NEEDS_MINGO);
  });

  it('$set and $unset report no change when the value is already there or already gone', () => {
    expect(apply({ $set: { n: 1, 'obj.k': 1, s: 'x' } })).toBeUndefined();
    expect(apply({ $unset: { absent: '', 'obj.absent': '', 'nothing.below': '' } })).toBeUndefined();
    expect(apply({ $unset: { n: '', 'obj.k': '' } })).toStrictEqual({ _id: 'a', s: 'x', zero: 0, nil: null, obj: {}, list: [1, 2] });
  });

  it('$max and $min compare as mingo does, a missing field always taking the value', () => {
    expect(apply({ $max: { n: 0 }, $min: { s: 'y' } })).toBeUndefined();
    expect(apply({ $max: { n: 5, high: 1 }, $min: { s: 'a', low: 1 } })).toMatchObject({ n: 5, high: 1, s: 'a', low: 1 });
    expect(apply({ $max: { n: 'text' } })).toMatchObject({ n: 'text' }); // strings sort after numbers
  });

  it('creates parents through missing and null fields, and leaves a path through 0 alone', () => {
    expect(apply({ $set: { 'nil.k': 1, 'fresh.k': 2 } })).toMatchObject({ nil: { k: 1 }, fresh: { k: 2 } });
    expect(apply({ $set: { 'zero.k': 1 } })).toBeUndefined();
  });

  it('hands mingo the paths it treats specially', () => {
    expect(apply({ $set: { 'list.0': 9 } })).toBe(NEEDS_MINGO);
    expect(apply({ $set: { 's.k': 9 } })).toBe(NEEDS_MINGO);
    expect(copyOnWriteUpdate(doc, { $set: { 'list.$': 9 } })).toBe(NEEDS_MINGO);
    expect(copyOnWriteUpdate(doc, { $set: { _id: 'b' } })).toBe(NEEDS_MINGO);
    expect(copyOnWriteUpdate(doc, { $set: { obj: 1 }, $inc: { 'obj.k': 1 } })).toBe(NEEDS_MINGO);
    expect(copyOnWriteUpdate(doc, { $push: { list: { $each: [3] } } })).toBe(NEEDS_MINGO);
    expect(() => applyUpdate(doc, { $set: { obj: 1 }, $inc: { 'obj.k': 1 } })).toThrow(/conflict/);
  });

  it('copies set values, so the caller changing them later changes nothing stored', () => {
    const value = { tags: ['a'] };
    const next = copyOnWriteUpdate(doc, { $set: { value }, $max: { other: value } }) as Document & Record<string, typeof value>;
    value.tags.push('b');
    expect(next.value).toEqual({ tags: ['a'] });
    expect(next.other).toEqual({ tags: ['a'] });
  });

  it('changes nothing for operators without fields', () => {
    expect(copyOnWriteUpdate(doc, { $set: {}, $bogus: {} })).toBeUndefined();
    expect(applyUpdate(doc, { $set: {}, $push: {} })).toBeUndefined();
  });
});
