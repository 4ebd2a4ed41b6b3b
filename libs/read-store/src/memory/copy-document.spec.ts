import { copyDocument } from './copy-document';
import { Random, randomDocument } from './property-random';

describe('copyDocument', () => {
  it('copies stored documents exactly as structuredClone does, sharing nothing with them', () => {
    const random = new Random(3);
    for (let run = 0; run < 2000; run += 1) {
      const doc = randomDocument(random, `d${run}`);
      if (random.chance(0.2)) (doc as Record<string, unknown>).undefinedField = undefined;
      const copy = copyDocument<typeof doc>(doc);
      expect(copy).toStrictEqual(structuredClone(doc));
      for (const [field, value] of Object.entries(doc)) {
        if (typeof value === 'object' && value !== null) expect(copy[field]).not.toBe(value);
      }
    }
  });

  it('copies dates, nested arrays and sparse arrays', () => {
    // eslint-disable-next-line no-sparse-arrays -- the hole is the case under test
    const doc = { _id: 'a', at: new Date(5), grid: [[1, { x: [2] }]], sparse: [1, , 3] };
    const copy = copyDocument<typeof doc>(doc);
    expect(copy).toStrictEqual(doc);
    expect(copy.at).not.toBe(doc.at);
    expect(1 in copy.sparse).toBe(false);
  });

  it('leaves anything but plain data to structuredClone, errors included', () => {
    class Point {
      constructor(readonly x: number) {}
    }
    const doc = { _id: 'a', point: new Point(1), tags: new Set(['x']), nested: { own: { constructor: 'x' } } };
    expect(copyDocument(doc)).toStrictEqual(structuredClone(doc));
    const cyclic: { _id: string; self?: unknown } = { _id: 'c' };
    cyclic.self = cyclic;
    const copy = copyDocument<typeof cyclic>(cyclic);
    expect(copy.self).toBe(copy);
    const withFunction = { _id: 'f', run: () => undefined };
    expect(() => copyDocument(withFunction)).toThrow();
  });

  it('keeps an own __proto__ field a field', () => {
    const doc = JSON.parse('{"_id":"p","__proto__":{"polluted":true}}');
    const copy = copyDocument<object>(doc);
    expect(Object.getPrototypeOf(copy)).not.toHaveProperty('polluted');
    expect(Object.keys(copy)).toEqual(['_id', '__proto__']);
  });
});
