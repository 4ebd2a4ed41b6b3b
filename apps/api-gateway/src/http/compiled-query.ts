import { TransformationType } from 'class-transformer';
import { getMetadataStorage, isIn, isInt, isString, isUUID, max, maxLength, min, minLength } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { decimalInteger } from '../pagination/decimal-integer';
import { uuidFieldsOf } from './lowercase-uuids';

// class-transformer keeps its decorators' metadata here; the package exports it under no other name.
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as typeof import('class-transformer/types/storage');

/**
 * The query string of a list operation is checked on every GET; class-transformer and class-validator cost about a
 * tenth of such a request (Benchmark 3). A query DTO whose rules are all simple is compiled once, from the same
 * decorators, into a check of the plain values: it accepts a query only when every field is known, a single
 * string, and passes each of its rules through the same class-validator functions the decorators run, and then
 * answers what the ValidationPipe would (an instance of the DTO, its `@DecimalInteger()` and `@Type(() => Number)`
 * fields converted as class-transformer does). Anything else (an unknown or repeated field, a value a rule refuses, a
 * DTO with another kind of rule) returns undefined, and the ValidationPipe decides and words the 400, so the
 * answer never differs from the pipe's.
 */
export type CompiledQuery = (query: unknown) => object | undefined;

type Rule = (value: unknown) => boolean;

/** The class-validator rules compiled, by the name their decorator registers; each is the decorator's own function. */
const RULES: Record<string, (constraints: unknown[]) => Rule> = {
  isIn: ([values]) => (value) => isIn(value, values as unknown[]),
  isString: () => (value) => isString(value),
  maxLength: ([limit]) => (value) => maxLength(value, limit as number),
  minLength: ([limit]) => (value) => minLength(value, limit as number),
  isUuid: ([version]) => (value) => isUUID(value, version as Parameters<typeof isUUID>[1]),
  isInt: () => (value) => isInt(value),
  min: ([bound]) => (value) => min(value, bound as number),
  max: ([bound]) => (value) => max(value, bound as number),
};

interface Field {
  name: string;
  /** class-validator's `@ValidateIf`/`@IsOptional` conditions: the rules apply only when all hold. */
  conditions: Array<(object: object, value: unknown) => boolean>;
  rules: Rule[];
  convert: (raw: string) => unknown;
}

/** The DTO compiled, or undefined when one of its rules or conversions is not one this compiles. */
export function compileQuery(dto: new () => object): CompiledQuery | undefined {
  if (hasTransformerOptions(dto)) return undefined;
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(dto, '', false, false);
  // class-validator refuses an object of a class without rules (forbidUnknownValues): the pipe says so.
  if (metadatas.length === 0) return undefined;
  const fields = new Map<string, Field>();
  for (const metadata of metadatas) {
    const field = fields.get(metadata.propertyName) ?? { name: metadata.propertyName, conditions: [], rules: [], convert: (raw: string) => raw };
    fields.set(metadata.propertyName, field);
    if (!addMetadata(field, metadata)) return undefined;
  }
  const uuids = uuidFieldsOf(dto);
  for (const field of fields.values()) {
    const converted = conversionOf(dto, field.name);
    if (!converted) return undefined;
    // stored ids are lower case (as the pipe leaves them): an id in upper case still matches
    field.convert = uuids.includes(field.name) ? (raw) => converted(raw.toLowerCase()) : converted;
  }
  const all = [...fields.values()];
  return (query) => {
    if (typeof query !== 'object' || query === null) return undefined;
    const entity = new dto() as Record<string, unknown>;
    for (const key of Object.keys(query)) {
      const raw = (query as Record<string, unknown>)[key];
      const field = fields.get(key);
      if (!field || typeof raw !== 'string') return undefined;
      entity[key] = field.convert(raw);
    }
    for (const field of all) {
      const value = entity[field.name];
      if (!field.conditions.every((holds) => holds(entity, value))) continue;
      if (!field.rules.every((rule) => rule(value))) return undefined;
    }
    return entity;
  };
}

function addMetadata(field: Field, metadata: ValidationMetadata): boolean {
  if (metadata.each || (metadata.groups && metadata.groups.length > 0) || metadata.always) return false;
  if (metadata.type === 'conditionalValidation') {
    field.conditions.push(metadata.constraints[0] as Field['conditions'][number]);
    return true;
  }
  const compile = metadata.type === 'customValidation' && metadata.name ? RULES[metadata.name] : undefined;
  if (!compile) return false;
  field.rules.push(compile(metadata.constraints ?? []));
  return true;
}

/**
 * How class-transformer turns the query's string into the field's value: as is, `@DecimalInteger()`, or `Number()`
 * for `@Type(() => Number)`; undefined for another `@Transform` or another type.
 */
function conversionOf(dto: Function, property: string): ((raw: string) => unknown) | undefined {
  const transforms = defaultMetadataStorage.findTransformMetadatas(dto, property, TransformationType.PLAIN_TO_CLASS);
  const type = defaultMetadataStorage.findTypeMetadata(dto, property);
  if (transforms.length === 1 && transforms[0].transformFn === decimalInteger && !type) return (raw) => decimalInteger({ value: raw });
  if (transforms.length > 0) return undefined;
  if (!type) return (raw) => raw;
  const target = type.typeFunction();
  if (target === Number) return (raw) => Number(raw);
  if (target === String) return (raw) => raw;
  return undefined;
}

/** `@Expose` or `@Exclude` change what class-transformer makes of a query: such DTOs stay with the pipe. */
function hasTransformerOptions(dto: Function): boolean {
  return defaultMetadataStorage.getExposedMetadatas(dto).length > 0 || defaultMetadataStorage.getExcludedMetadatas(dto).length > 0;
}
