import type { Document } from '../read-store.port';
import { isDate, isPlainArray, isPlainObject } from './field-paths';

/** MongoDB's nesting limit: a stored value nested deeper is not data it could hold (a cycle, for instance). */
const MAX_DEPTH = 100;

class NotPlainData extends Error {}

/**
 * A deep copy of a stored document for a caller, so neither side's later changes reach the other. Stored
 * documents are plain data (objects, arrays, scalars, dates), which this copies several times faster than
 * structuredClone does; a document holding anything else, or nested deeper than MongoDB allows, is copied by
 * structuredClone, as every document was before.
 */
export function copyDocument<T>(doc: Document): T {
  try {
    return copyValue(doc, 0) as T;
  } catch (error) {
    if (error instanceof NotPlainData) return structuredClone(doc) as T;
    throw error;
  }
}

function copyValue(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'function' || typeof value === 'symbol') throw new NotPlainData();
    return value;
  }
  if (depth > MAX_DEPTH) throw new NotPlainData();
  // map keeps the holes of a sparse array, as structuredClone does.
  if (isPlainArray(value)) return value.map((element) => copyValue(element, depth + 1));
  if (isDate(value)) return new Date(value.getTime());
  if (!isPlainObject(value)) throw new NotPlainData();
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    // Assigning an own `__proto__` field (JSON.parse makes them) would set the copy's prototype instead.
    if (key === '__proto__') throw new NotPlainData();
    copy[key] = copyValue(value[key], depth + 1);
  }
  return copy;
}
