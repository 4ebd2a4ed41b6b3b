import { canonicalJson, sameJson } from './canonical-json';

describe('canonical JSON', () => {
  it('sorts keys at every level, keeps array order, writes no whitespace, leaves undefined members out', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ f: 1, e: 2 }], c: null, u: undefined } })).toBe('{"a":{"c":null,"d":[{"e":2,"f":1}]},"b":1}');
    expect(canonicalJson({ b: [3, { z: null, a: 'é' }], a: true })).toBe('{"a":true,"b":[3,{"a":"é","z":null}]}');
  });

  it('tells the same data apart from different data, whatever the key order', () => {
    expect(sameJson({ same_origin: true, max_size_kb: 100 }, { max_size_kb: 100, same_origin: true })).toBe(true);
    expect(sameJson({ domain: ['a.com', 'b.com'] }, { domain: ['b.com', 'a.com'] })).toBe(false);
    expect(sameJson({ a: 1 }, { a: '1' })).toBe(false);
    expect(sameJson(null, {})).toBe(false);
  });
});
