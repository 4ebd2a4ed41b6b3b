import type { Document } from '../read-store.port';

/**
 * Test support for the property tests that hold the direct evaluators to mingo: a seeded random source (the same
 * seed gives the same cases, so a failure can be replayed) and small random documents built to hit mingo's
 * corner cases: null and missing fields, arrays of scalars and of objects, nested objects, mixed types, NaN, -0.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** mulberry32: small and good enough to spread test cases. */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(below: number): number {
    return Math.floor(this.next() * below);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  some<T>(make: () => T, max: number, min = 0): T[] {
    return Array.from({ length: min + this.int(max - min + 1) }, make);
  }
}

/** Scalars of every type mingo orders, with the values where types or equality get subtle. */
export const SCALARS: readonly unknown[] = [null, 0, -0, 1, 2, 2.5, -3, NaN, '', 'a', 'b', '1', 'B', true, false, new Date(0), new Date(5000)];

export function randomScalar(random: Random): unknown {
  const value = random.pick(SCALARS);
  return value instanceof Date ? new Date(value.getTime()) : value;
}

/** A value for a field: mostly scalars, sometimes an array of scalars, an array of arrays or an object. */
export function randomValue(random: Random, depth = 0): unknown {
  const roll = random.next();
  if (depth > 1 || roll < 0.6) return randomScalar(random);
  if (roll < 0.75) return random.some(() => randomScalar(random), 3);
  if (roll < 0.8) return [random.some(() => randomScalar(random), 2)];
  return randomObject(random, depth + 1);
}

function randomObject(random: Random, depth: number): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const field of ['x', 'y', 'z']) if (random.chance(0.6)) object[field] = randomValue(random, depth);
  return object;
}

/** A document with any of the fields a, b, c, o (often an object) and list (often an array of objects). */
export function randomDocument(random: Random, id: string): Document & Record<string, unknown> {
  const doc: Document & Record<string, unknown> = { _id: id };
  for (const field of ['a', 'b', 'c']) if (random.chance(0.75)) doc[field] = randomValue(random);
  if (random.chance(0.8)) doc.o = random.chance(0.75) ? randomObject(random, 1) : randomScalar(random);
  if (random.chance(0.6)) doc.list = random.some(() => (random.chance(0.8) ? randomObject(random, 1) : randomScalar(random)), 3);
  return doc;
}

/** Freezes a value and everything in it, so a test fails on any write into it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
