import type { Document, Filter } from '../read-store.port';
import { isPlainObject, namesPrototype, ownField } from './field-paths';
import { compare, flatten, isEqual, isOperator, MINGO_OPTIONS, Query, resolve, typeOf } from './mingo';

/** Whether a document satisfies a filter, or one clause of a filter. */
export type Matcher = (doc: Document) => boolean;

/** Compiles one top-level clause (`field: condition`) that the direct evaluator does not handle. */
export type ClauseFallback = (field: string, condition: unknown) => Matcher;

/**
 * Compiles a MongoDB filter into a predicate with mingo's semantics. A document must satisfy every top-level
 * clause, and mingo compiles each on its own, so each is compiled here on its own: the common ones directly
 * (equality; $eq, $ne, $gt, $gte, $lt, $lte; $in and $nin over scalars; $exists on a top-level field; $and, $or;
 * dotted paths), with mingo's own path, equality and comparison helpers; any other ($regex, $elemMatch, $not,
 * $size, $expr, ...) by a mingo Query of that clause alone. Compiling a mingo Query copies its operator registry,
 * which cost more than everything else on the hot paths. Fallback clauses are compiled at once, as the whole
 * Query was, so a malformed filter still fails before any document is read.
 */
export function compileFilter(filter: Filter, fallback: ClauseFallback = mingoClause): Matcher {
  return allOf(Object.keys(filter).map((field) => compileClause(field, filter[field], fallback) ?? fallback(field, filter[field])));
}

function mingoClause(field: string, condition: unknown): Matcher {
  const query = new Query({ [field]: condition }, MINGO_OPTIONS);
  return (doc) => query.test(doc);
}

function compileClause(field: string, condition: unknown, fallback: ClauseFallback): Matcher | undefined {
  if (field === '$and' || field === '$or') return compileLogical(field, condition, fallback);
  if (field.startsWith('$') || namesPrototype(field)) return undefined;
  const read = fieldReader(field);
  // mingo's normalization: a scalar, or an object with no operator key, is an equality.
  if (isScalar(condition)) return condition instanceof RegExp ? undefined : equalTo(read, condition, depthOf(field));
  const operators = Object.keys(condition as object);
  if (!operators.some(isOperator)) return equalTo(read, condition, depthOf(field));
  const predicates: Matcher[] = [];
  for (const operator of operators) {
    const predicate = compileOperator(operator, (condition as Record<string, unknown>)[operator], field, read);
    if (!predicate) return undefined;
    predicates.push(predicate);
  }
  return allOf(predicates);
}

type FieldReader = (doc: Document) => unknown;

function compileOperator(operator: string, operand: unknown, field: string, read: FieldReader): Matcher | undefined {
  switch (operator) {
    case '$eq':
      return equalTo(read, operand, depthOf(field));
    case '$ne':
      return not(equalTo(read, operand, depthOf(field)));
    case '$gt':
      return ordered(read, operand, (order) => order > 0);
    case '$gte':
      return ordered(read, operand, (order) => order >= 0);
    case '$lt':
      return ordered(read, operand, (order) => order < 0);
    case '$lte':
      return ordered(read, operand, (order) => order <= 0);
    case '$in':
      return isScalarList(operand) ? memberOf(read, operand) : undefined;
    case '$nin':
      return isScalarList(operand) ? not(memberOf(read, operand)) : undefined;
    case '$exists':
      // mingo walks dotted paths through arrays in its own way for $exists; those stay with mingo.
      return field.includes('.') ? undefined : exists(topLevelReader(field), Boolean(operand));
    default:
      return undefined;
  }
}

/** `$and` and `$or` over filters, each compiled like a whole filter. */
function compileLogical(operator: '$and' | '$or', branches: unknown, fallback: ClauseFallback): Matcher | undefined {
  if (!Array.isArray(branches) || !branches.every(isPlainObject)) return undefined;
  const compiled = branches.map((branch) => compileFilter(branch, fallback));
  return operator === '$and' ? allOf(compiled) : (doc) => compiled.some((matches) => matches(doc));
}

/** The value a predicate sees, as mingo resolves it: an array of the values found when a path crosses arrays. */
function fieldReader(field: string): FieldReader {
  if (!field.includes('.')) return topLevelReader(field);
  return (doc) => resolve(doc, field, { unwrapArray: true });
}

/**
 * A top-level field as `ownField` reads it. A name that no plain object inherits (every name but `constructor`,
 * `toString` and the like) can only be an own field of a stored document, so it is read directly, without the
 * `hasOwnProperty` call that cost more than the rest of the match on large documents.
 */
export function topLevelReader(field: string): FieldReader {
  if (field in Object.prototype) return (doc) => ownField(doc, field);
  return (doc) => (doc as Record<string, unknown>)[field];
}

/** mingo flattens nested arrays for equality as deep as the path has dots. */
function depthOf(field: string): number {
  let depth = 0;
  for (let dot = field.indexOf('.'); dot !== -1; dot = field.indexOf('.', dot + 1)) depth += 1;
  return depth;
}

/**
 * mingo's $eq: equal values, null for missing, or an array holding the value. Equality is mingo's `isEqual`, so
 * types never mix (1 is not '1') and NaN equals NaN. A top-level field against a string, number or boolean, the
 * common case, gets the same answer without the general helpers.
 */
function equalTo(read: FieldReader, value: unknown, depth: number): Matcher {
  if (depth === 0 && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')) {
    const same = value === value ? (v: unknown) => v === value : (v: unknown) => v !== v;
    return (doc) => {
      const actual = read(doc);
      return same(actual) || (Array.isArray(actual) && actual.some(same));
    };
  }
  return (doc) => {
    const actual = read(doc);
    if (isEqual(actual, value) || (actual == null && value == null)) return true;
    return Array.isArray(actual) && (actual.some((v) => isEqual(v, value)) || flatten(actual, depth).some((v) => isEqual(v, value)));
  };
}

/**
 * mingo's $gt, $gte, $lt and $lte: only values of the bound's own type compare (a string is never less than a
 * number, and null or missing never compares with a number), each element of an array on its own. Two strings
 * or two numbers compare with < and >, exactly as mingo's `compare` does for them.
 */
function ordered(read: FieldReader, bound: unknown, holds: (order: number) => boolean): Matcher {
  const boundType = typeOf(bound);
  const primitiveType = typeof bound === 'string' || typeof bound === 'number' ? typeof bound : undefined;
  const one = (v: unknown) => {
    if (typeof v === primitiveType) return holds((v as number) < (bound as number) ? -1 : (v as number) > (bound as number) ? 1 : 0);
    return typeOf(v) === boundType && holds(compare(v, bound));
  };
  return (doc) => {
    const actual = read(doc);
    return Array.isArray(actual) ? actual.some(one) : one(actual);
  };
}

/**
 * mingo's $in over a list of scalars: missing or null is in it when null is, an array when any element is. A Set
 * compares like mingo's hash map does for scalars (NaN is NaN, 0 is -0).
 */
function memberOf(read: FieldReader, values: ScalarList): Matcher {
  const members = new Set<unknown>(values);
  return (doc) => {
    const actual = read(doc);
    if (actual == null) return members.has(null);
    return Array.isArray(actual) ? actual.some((v) => members.has(v)) : members.has(actual);
  };
}

type ScalarList = Array<string | number | boolean | null>;

function isScalarList(value: unknown): value is ScalarList {
  return (
    Array.isArray(value) &&
    value.every((v) => v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
  );
}

/** mingo's scalars: what it treats as a value to compare with rather than an object of operators. */
function isScalar(value: unknown): boolean {
  return (typeof value !== 'object' && typeof value !== 'function') || value === null || value instanceof Date || value instanceof RegExp;
}

function exists(read: FieldReader, wanted: boolean): Matcher {
  return (doc) => (read(doc) !== undefined) === wanted;
}

function not(matches: Matcher): Matcher {
  return (doc) => !matches(doc);
}

function allOf(matchers: Matcher[]): Matcher {
  if (matchers.length === 1) return matchers[0];
  return (doc) => matchers.every((matches) => matches(doc));
}
