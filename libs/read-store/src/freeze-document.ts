import { isPlainArray, isPlainObject } from './memory/field-paths';

/** MongoDB's nesting limit: a value nested deeper is not data it could hold (a cycle, for instance). */
const MAX_DEPTH = 100;

/**
 * Freezes every plain object and array of a document in place, the document itself included. True when that is
 * all it holds besides scalars, so that nothing in it can change any more; false when it also holds values
 * freezing does not fix (a Date keeps its time in an internal slot, a driver's ObjectId caches its hex string),
 * which are left as they are, or is nested deeper than MongoDB allows.
 */
export function freezeDocument(doc: object): boolean {
  return freezeValue(doc, 0);
}

function freezeValue(value: unknown, depth: number): boolean {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return true;
  if (depth > MAX_DEPTH || !(isPlainObject(value) || isPlainArray(value))) return false;
  let plain = true;
  for (const key of Object.keys(value)) if (!freezeValue((value as Record<string, unknown>)[key], depth + 1)) plain = false;
  Object.freeze(value);
  return plain;
}
