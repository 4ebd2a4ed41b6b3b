import fc from 'fast-check';

/** Keys that name an object's prototype, and names that shadow what every object inherits. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'];
const INHERITED_NAMES = ['toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__'];

/** Text that has broken parsers, validators, databases or logs somewhere: one of each kind. */
const EDGE_TEXTS = [
  '',
  ' ',
  '\t\r\n',
  '\u0000',
  'a\u0000b',
  '\uD800', // lone high surrogate
  '\uDFFF', // lone low surrogate
  'ab\uDBFFc',
  '\u202Egnp.exe', // right-to-left override
  '\u200F\u200E\u061C', // direction marks
  'مرحبا',
  '💳',
  '👩🏽‍💻', // emoji with skin tone and zero-width joiner
  'e\u0301\u0302\u0303\u0304\u0305\u0306\u0307', // stacked combining marks
  '\uFEFF', // byte order mark
  '\uFFFE\uFFFF',
  'ｓｔｏｒｅ', // full-width: changes under NFKC
  'İstanbul', // changes length when lower-cased
  'ß',
  '../../etc/passwd',
  '%00',
  '%E0%A4%A',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '{{7*7}}',
  '$where',
  '$gt',
  'NaN',
  'Infinity',
  '-0',
  '1e400',
  'true',
  'null',
  'undefined',
  ...PROTOTYPE_KEYS,
  ...INHERITED_NAMES,
];

/** Strings no field expects: edge cases, arbitrary code points, and strings long enough to find unbounded work. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...EDGE_TEXTS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('\uD800', '\uDC00', 'a', '\u0301'), maxLength: 12 }) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('a', '💳', '\u0000', 'é'), fc.constantFrom(257, 2_049, 70_000)).map(([unit, times]) => unit.repeat(times)) },
);

/** Numbers at the edges of what JSON carries and what validators check. */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -0, -1, 1.5, 0.1, 101, 2 ** 31, 2 ** 53 + 2, -(2 ** 53), 1e21, 1e308, -1e308, 5e-324),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Operators a document database would obey if a value reached a query unchecked. */
const queryOperator = fc.constantFrom({ $gt: '' }, { $ne: null }, { $where: 'sleep(1000)' }, { $regex: '.*' }, { $in: [] });

/** An object whose keys are prototype keys or shadow inherited methods. */
export const prototypeObject: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(fc.constantFrom(...PROTOTYPE_KEYS, ...INHERITED_NAMES), fc.constantFrom<unknown>({ polluted: true }, 'x', 1, null, { prototype: { polluted: true } }))
  .map(([key, value]) => JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(value)}}`));

/** Any JSON value a field might get instead of what it expects, a little nested. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.constant([]),
    fc.constant({}),
    queryOperator,
    prototypeObject,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(hostileString.filter((key) => key.length < 64), tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** JSON texts nested `depth` levels deep, as arrays or as objects: the stack-overflow reproduction. */
export const deeplyNested = (depth: number, kind: 'array' | 'object'): string =>
  kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** Bodies that are not the JSON a route expects, or not JSON at all. */
export const malformedBodyText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '{',
    '{"a":1,}',
    "{'a':1}",
    '{"a":1}{"b":2}',
    '[]',
    '[[]]',
    'null',
    '"text"',
    '0',
    'true',
    '\uFEFF{}',
    '{"a":"\\ud800"}',
    '{"\\u005f_proto__":{"polluted":true}}',
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"a":1,"a":2}',
    '{"a":1e999}',
    '\u0000',
    'a=1&b=2',
  ),
  fc.tuple(fc.constantFrom(33, 1_500, 100_000), fc.constantFrom<'array' | 'object'>('array', 'object')).map(([depth, kind]) => deeplyNested(depth, kind)),
  fc.string({ unit: 'binary', maxLength: 40 }),
);
