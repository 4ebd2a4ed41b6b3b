import type { Document, UpdateSpec } from '../read-store.port';
import { isPlainObject, namesPrototype } from './field-paths';
import { cloneDeep, compare, isEqual, unique } from './mingo';

/** The answer for an update outside the direct path: mingo must apply it. */
export const NEEDS_MINGO = Symbol('needs mingo');

type Container = Record<string, unknown>;

/** One operator on one field, given the object holding the field: true when it changed the field. */
interface FieldOperator {
  apply(container: Container, key: string, operand: unknown): boolean;
  /** All but $unset create missing (or null) parent objects on the way, as mingo does. */
  createsParents: boolean;
}

/**
 * The operators applied here, each as mingo applies it (with its `isEqual` and `compare`). Values are deep-copied
 * with mingo's `cloneDeep`, as it copies $set values, so nothing the caller holds ends up shared with a stored
 * document; mingo shares $max and $min values instead, which only aliasing could tell apart.
 */
const FIELD_OPERATORS = new Map<string, FieldOperator>([
  [
    '$set',
    {
      createsParents: true,
      apply(container, key, value) {
        if (isEqual(container[key], value)) return false;
        container[key] = cloneDeep(value);
        return true;
      },
    },
  ],
  [
    '$unset',
    {
      createsParents: false,
      apply(container, key) {
        if (!Object.prototype.hasOwnProperty.call(container, key)) return false;
        const previous = container[key];
        delete container[key];
        return !isEqual(previous, container[key]);
      },
    },
  ],
  [
    '$inc',
    {
      createsParents: true,
      apply(container, key, amount) {
        const previous = container[key];
        // Anything but a number or a missing field is left as it is (MongoDB would refuse the update).
        if (!(isNumber(previous) || previous === undefined)) return false;
        container[key] = ((previous as number) || 0) + (amount as number);
        return container[key] !== previous;
      },
    },
  ],
  [
    '$max',
    {
      createsParents: true,
      apply(container, key, value) {
        if (compare(container[key], value) > -1) return false;
        container[key] = cloneDeep(value);
        return true;
      },
    },
  ],
  [
    '$min',
    {
      createsParents: true,
      apply(container, key, value) {
        if (container[key] !== undefined && compare(container[key], value) < 1) return false;
        container[key] = cloneDeep(value);
        return true;
      },
    },
  ],
  [
    '$push',
    {
      createsParents: true,
      apply(container, key, value) {
        const list = container[key];
        if (!Array.isArray(list)) return list === undefined && set(container, key, [cloneDeep(value)]);
        // A new array: the current version's stays as it was.
        return set(container, key, [...list, cloneDeep(value)]);
      },
    },
  ],
  [
    '$addToSet',
    {
      createsParents: true,
      apply(container, key, value) {
        const list = container[key];
        if (!Array.isArray(list)) return list === undefined && set(container, key, [cloneDeep(value)]);
        // mingo's own set (its equality, and -0 as 0) over the whole list, as its $addToSet does.
        const withValue = unique([...list, value]);
        return withValue.length !== list.length && set(container, key, cloneDeep(withValue));
      },
    },
  ],
]);

/**
 * Applies $set, $unset, $inc, $max, $min, $push and $addToSet (of one value) to plain fields and dotted paths through plain objects, without
 * touching `current`: the next version is a shallow copy whose changed branches alone are copied (copy on write),
 * sharing every untouched value with `current`. That is safe because stored versions are never changed in place.
 * Gives the next version, undefined when nothing changed, or NEEDS_MINGO for anything else: other operators,
 * paths mingo refuses or treats specially (`$`, `_id`, `__proto__`, conflicting paths), paths through arrays or
 * other non-plain values, $inc by a non-number, $push or $addToSet with modifiers (`$each`, `$slice`...). mingo
 * then applies the update to a deep copy instead.
 */
export function copyOnWriteUpdate(current: Document, operators: UpdateSpec): Document | undefined | typeof NEEDS_MINGO {
  const steps = plannedSteps(operators);
  if (steps === NEEDS_MINGO) return NEEDS_MINGO;
  const next: Container = { ...current };
  const copies = new Set<object>();
  let changed = false;
  for (const { operator, path, operand } of steps) {
    const container = writableParent(next, path, operator.createsParents, copies);
    if (container === NEEDS_MINGO) return NEEDS_MINGO;
    if (container && operator.apply(container, path[path.length - 1], operand)) changed = true;
  }
  return changed ? (next as Document) : undefined;
}

interface Step {
  operator: FieldOperator;
  path: string[];
  operand: unknown;
}

/** The field operations in mingo's order (operators, then fields, as written), once every one qualifies. */
function plannedSteps(operators: UpdateSpec): Step[] | typeof NEEDS_MINGO {
  const steps: Step[] = [];
  const paths = new ConflictCheck();
  for (const name of Object.keys(operators)) {
    const fields = operators[name];
    const names = Object.keys(fields);
    if (names.length === 0) continue; // an empty operator is a no-op, as on MongoDB 5+
    const operator = FIELD_OPERATORS.get(name);
    if (!operator) return NEEDS_MINGO;
    for (const field of names) {
      if (!isDirectPath(field) || !paths.add(field)) return NEEDS_MINGO;
      if (name === '$inc' && !isNumber(fields[field])) return NEEDS_MINGO; // mingo refuses it with its own error
      if ((name === '$push' || name === '$addToSet') && hasModifiers(fields[field])) return NEEDS_MINGO;
      steps.push({ operator, path: field.includes('.') ? field.split('.') : [field], operand: fields[field] });
    }
  }
  return steps;
}

/** Dotted paths of plain names: no positional `$`, no empty segment, not `_id` (immutable) nor `__proto__`. */
function isDirectPath(field: string): boolean {
  if (field === '' || field.includes('$') || field === '_id' || field.startsWith('_id.') || namesPrototype(field)) return false;
  return !field.startsWith('.') && !field.endsWith('.') && !field.includes('..');
}

/**
 * The object that holds the last segment of `path` in `next`, copying each parent on the way the first time it
 * is written through. Undefined when mingo would leave the path alone (a missing parent for $unset, a parent
 * that is 0, '' or false); NEEDS_MINGO when a parent is an array or another non-plain value.
 */
function writableParent(
  next: Container,
  path: readonly string[],
  createsParents: boolean,
  copies: Set<object>,
): Container | undefined | typeof NEEDS_MINGO {
  // `next` itself is a copy already; `copies` holds the parents copied or created below it.
  let container = next;
  for (let i = 0; i < path.length - 1; i += 1) {
    const child = container[path[i]];
    let writable: Container;
    if (child === undefined || child === null) {
      if (!createsParents) return undefined;
      writable = {};
    } else if (isPlainObject(child)) {
      writable = copies.has(child) ? child : { ...child };
    } else {
      return child ? NEEDS_MINGO : undefined;
    }
    if (writable !== child) {
      container[path[i]] = writable;
      copies.add(writable);
    }
    container = writable;
  }
  return container;
}

/** Detects paths that overlap (one equal to or inside another), which mingo refuses in one update. */
class ConflictCheck {
  private readonly fields = new Set<string>();
  private readonly parents = new Set<string>();

  add(field: string): boolean {
    if (this.fields.has(field) || this.parents.has(field)) return false;
    for (let dot = field.indexOf('.'); dot !== -1; dot = field.indexOf('.', dot + 1)) {
      const parent = field.slice(0, dot);
      if (this.fields.has(parent)) return false;
      this.parents.add(parent);
    }
    this.fields.add(field);
    return true;
  }
}

function set(container: Container, key: string, value: unknown): true {
  container[key] = value;
  return true;
}

/** `{ $each: [...] }` and its kin: a $push or $addToSet of several values, sorted or sliced. */
function hasModifiers(operand: unknown): boolean {
  return isPlainObject(operand) && Object.keys(operand).some((key) => key.startsWith('$'));
}

/** mingo's numbers: NaN is not one. */
function isNumber(value: unknown): value is number {
  return typeof value === 'number' && !Number.isNaN(value);
}
