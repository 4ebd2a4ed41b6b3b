/** Helpers shared by the direct evaluators for reading and walking document fields the way mingo does. */

/** A path with a `__proto__` segment: mingo refuses it, so only mingo answers for it (with its error). */
export function namesPrototype(path: string): boolean {
  return path.includes('__proto__') && path.split('.').includes('__proto__');
}

/**
 * A top-level field as mingo reads it from a document: an own field, or missing. `constructor`, `toString` and
 * the other names inherited from Object.prototype read as missing unless the document has them itself.
 */
export function ownField(doc: object, field: string): unknown {
  return Object.prototype.hasOwnProperty.call(doc, field) ? (doc as Record<string, unknown>)[field] : undefined;
}

/*
 * The kinds of value stored documents consist of, told apart in any realm: jest runs each test file in a realm of
 * its own, where structuredClone still answers with objects of Node's main realm, so a stored document can hold
 * objects whose prototype is another realm's Object.prototype. mingo treats those as plain objects too.
 */

/** An object literal's kind of object: the only kind the direct evaluators walk into or copy with a spread. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  // An own `constructor` field changes what mingo takes the object for; mingo alone decides about those.
  if (Object.prototype.hasOwnProperty.call(value, 'constructor')) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || isRealmPrototype(prototype, 'Object');
}

/** An array literal's kind of array (not a subclass, not a typed array). */
export function isPlainArray(value: unknown): value is unknown[] {
  if (!Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Array.prototype || isRealmPrototype(prototype, 'Array');
}

/** A Date (not a subclass). */
export function isDate(value: unknown): value is Date {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Date.prototype || isRealmPrototype(prototype, 'Date');
}

/** Some realm's `Object.prototype`, `Array.prototype` or `Date.prototype`, named by its constructor. */
function isRealmPrototype(prototype: unknown, constructorName: 'Object' | 'Array' | 'Date'): boolean {
  if (typeof prototype !== 'object' || prototype === null) return false;
  const constructor = Object.prototype.hasOwnProperty.call(prototype, 'constructor') ? (prototype as { constructor: unknown }).constructor : undefined;
  if (typeof constructor !== 'function' || constructor.name !== constructorName) return false;
  const above: unknown = Object.getPrototypeOf(prototype);
  return constructorName === 'Object' ? above === null : isRealmPrototype(above, 'Object');
}
