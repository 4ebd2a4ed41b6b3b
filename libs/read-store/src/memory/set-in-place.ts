import type { Document, UpdateSpec } from '../read-store.port';
import { cloneDeep, isEqual } from './mingo';

/**
 * Applies an update that is a `$set` of top-level fields alone (what most projection updates are) to `doc` itself:
 * true when a field changed, false when none did, undefined for any other update, which `applyUpdate` applies.
 * Each field is set as `copyOnWriteUpdate` sets it (mingo's equality, values deep-copied), but nothing is copied
 * or planned per call, so `doc` must be its caller's own version, which nobody else holds: a replay's batch
 * changing a document it made, event after event (see `WriteBackCollection`).
 */
export function setInPlace(doc: Document, update: UpdateSpec): boolean | undefined {
  const operators = Object.keys(update);
  if (operators.length !== 1 || operators[0] !== '$set') return undefined;
  const fields = update.$set;
  const names = Object.keys(fields);
  // Checked before anything is set, so an update that is not for this path leaves `doc` as it was.
  if (!names.every(isTopLevelField)) return undefined;
  const container: Record<string, unknown> = doc;
  let changed = false;
  for (const name of names) {
    if (isEqual(container[name], fields[name])) continue;
    container[name] = cloneDeep(fields[name]);
    changed = true;
  }
  return changed;
}

/** A plain top-level name: no path, no operator, not `_id` (immutable) nor `__proto__`, as `copyOnWriteUpdate` takes. */
function isTopLevelField(name: string): boolean {
  return name !== '' && !name.includes('.') && !name.includes('$') && name !== '_id' && name !== '__proto__';
}
