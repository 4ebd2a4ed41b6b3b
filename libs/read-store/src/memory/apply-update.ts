import type { Document, UpdateSpec } from '../read-store.port';
import { copyOnWriteUpdate, NEEDS_MINGO } from './copy-on-write-update';
import { mingoUpdate, type MingoModifier } from './mingo';

/**
 * The version of `current` after MongoDB update operators, or undefined when they change nothing. `current` is
 * never changed. The common operators are applied directly (see `copyOnWriteUpdate`); any other update goes to
 * mingo, whose `update()` rebuilds its operator registry on each call, on a deep copy of the document.
 */
export function applyUpdate(current: Document, operators: UpdateSpec): Document | undefined {
  const direct = copyOnWriteUpdate(current, operators);
  if (direct !== NEEDS_MINGO) return direct;
  // An operator with no fields is a no-op on MongoDB 5+; mingo is given only the others (at least one is left).
  const effective = Object.fromEntries(Object.entries(operators).filter(([, fields]) => Object.keys(fields).length > 0));
  const next = structuredClone(current);
  // Deep copies keep values from the caller's update document from being shared with the stored document.
  const modified = mingoUpdate(next, effective as MingoModifier, undefined, undefined, { cloneMode: 'deep' });
  return modified.length > 0 ? next : undefined;
}
