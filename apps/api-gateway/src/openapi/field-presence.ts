/** A `@ValidateIf` / `@IsOptional` condition: the field's other validators run only when it returns true. */
export type ValidationCondition = (object: object, value: unknown) => boolean;

export interface FieldPresence {
  /** The field may be left out. */
  optional: boolean;
  /** The field may be null. */
  nullable: boolean;
  /** Other fields the conditions read: whether this one is checked depends on them. */
  dependsOn: string[];
}

/**
 * What a field's conditions let through, found by asking them: like class-validator, a value any condition turns
 * down is not checked at all, so accepted. The conditions are functions (`Omittable()`, `Nullable()`, `IsOptional()`
 * or a rule of the DTO's own); the object they are handed records which other fields they read, so a condition on
 * siblings shows as such instead of passing for a plain optional field.
 */
export function fieldPresence(property: string, conditions: ValidationCondition[]): FieldPresence {
  const dependsOn = new Set<string>();
  // Every condition is asked, as class-validator does, so all the fields they read are seen.
  const checks = (value: unknown) =>
    conditions.map((condition) => condition(recordingReads(property, value, dependsOn), value)).every(Boolean);
  return { optional: !checks(undefined), nullable: !checks(null), dependsOn: [...dependsOn] };
}

/** An object whose `property` holds `value` and whose other fields are absent, noting the names of those read. */
function recordingReads(property: string, value: unknown, reads: Set<string>): object {
  return new Proxy(
    { [property]: value },
    {
      get(target, key, receiver) {
        if (typeof key === 'string' && key !== property) reads.add(key);
        return Reflect.get(target, key, receiver);
      },
    },
  );
}
