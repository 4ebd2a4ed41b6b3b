import type { Document, UpdateSpec } from '../read-store.port';
import { applyUpdate } from './apply-update';
import { Random, randomDocument, randomValue } from './property-random';
import { setInPlace } from './set-in-place';

/** Top-level names, present or not in the random documents, and names the in-place path must leave to applyUpdate. */
const FIELDS = ['a', 'b', 'c', 'o', 'list', 'fresh', 'constructor'];
const OTHER_FIELDS = ['o.x', '_id', '__proto__', '', '$bad', 'list.0'];

function randomUpdate(random: Random): UpdateSpec {
  const names = random.chance(0.85) ? FIELDS : [...FIELDS, ...OTHER_FIELDS];
  const $set = Object.fromEntries(random.some(() => [random.pick(names), randomValue(random)], 3));
  if (random.chance(0.9)) return { $set };
  return random.chance(0.5) ? { $set, $inc: { n: 1 } } : { $unset: { a: '' } };
}

describe('setInPlace', () => {
  it('leaves the document as applyUpdate would make it, or hands the update back untouched', () => {
    const random = new Random(7);
    const outcomes = { changed: 0, unchanged: 0, handedBack: 0 };
    for (let run = 0; run < 5000; run += 1) {
      // Both sides get documents of the same realm (structuredClone's, under jest), which mingo's isEqual tells apart.
      const doc = structuredClone(randomDocument(random, `d${run}`));
      const update = randomUpdate(random);
      const before = structuredClone(doc);
      const label = `${JSON.stringify(update)} on ${JSON.stringify(before)}`;
      let expected: Document | undefined;
      let refused = false;
      try {
        expected = applyUpdate(before, update);
      } catch {
        refused = true; // mingo refuses it (a `$set` of `_id`, say): the in-place path must hand it back
      }
      const changed = setInPlace(doc, update);
      if (refused) expect({ label, changed }).toEqual({ label, changed: undefined });
      if (changed === undefined) {
        outcomes.handedBack += 1;
        expect({ label, doc }).toEqual({ label, doc: before });
        continue;
      }
      outcomes[changed ? 'changed' : 'unchanged'] += 1;
      expect({ label, changed }).toEqual({ label, changed: expected !== undefined });
      // Field order too: a document's fields come out in the order they were written.
      expect({ label, keys: Object.keys(doc) }).toEqual({ label, keys: Object.keys(expected ?? before) });
      expect({ label, doc }).toEqual({ label, doc: expected ?? before });
    }
    // Every outcome was exercised, so none of the comparisons above passed vacuously.
    expect(Math.min(...Object.values(outcomes))).toBeGreaterThan(200);
  });

  it("copies the values it sets: the caller's update shares nothing with the document", () => {
    const doc: Document & Record<string, unknown> = { _id: 'a' };
    const scopes = ['read'];
    const owner = { name: 'ops' };
    expect(setInPlace(doc, { $set: { scopes, owner } })).toBe(true);
    scopes.push('write');
    owner.name = 'changed';
    expect(doc).toEqual({ _id: 'a', scopes: ['read'], owner: { name: 'ops' } });
  });
});
