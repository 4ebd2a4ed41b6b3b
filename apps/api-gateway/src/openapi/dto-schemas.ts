import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { fieldPresence, type ValidationCondition } from './field-presence';
import { orNull, type JsonSchema } from './json-schema';
import { mergeSchemas } from './merge-schemas';
import { nestedTypeOf } from './nested-type';
import { validatorSchema } from './validator-schemas';

/** One field a DTO validates. `schema` describes its value; null, if allowed, is left to `nullable`. */
export interface DtoField {
  name: string;
  required: boolean;
  nullable: boolean;
  schema: JsonSchema;
}

/** Marks a field checked by validators the schema does not express: its schema accepts more than validation does. */
export const UNMAPPED_VALIDATORS = 'x-unmapped-validators';

/**
 * JSON Schemas read from the class-validator metadata of DTOs, the very metadata the validation pipe checks
 * against. Each DTO described becomes a named component (as do the DTOs it nests), referred to by `$ref`.
 */
export class DtoSchemas {
  /** The schemas of the DTOs described so far, by component name. */
  readonly components: Record<string, JsonSchema> = {};
  /** Component names by DTO, then by the fields left out of it (`''` for none). */
  private readonly names = new Map<Function, Map<string, string>>();

  /** @param reserved component names already taken in the document. */
  constructor(private readonly reserved: ReadonlySet<string>) {}

  /**
   * A `$ref` to the DTO's component, described on first use. `omitted` leaves out fields a route validates but
   * refuses to act on (`org_id` where the route refuses it), so the document offers no field that always fails.
   */
  refTo(dto: Function, omitted: readonly string[] = []): JsonSchema {
    const variants = this.names.get(dto) ?? new Map<string, string>();
    this.names.set(dto, variants);
    const key = omitted.join(',');
    let name = variants.get(key);
    if (name === undefined) {
      name = this.freeName(dto.name);
      // Named before it is described, so a DTO nesting itself refers to its own component.
      variants.set(key, name);
      this.components[name] = this.objectSchema(dto, omitted);
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  /** The fields the DTO validates, its base classes' first, as class-validator finds them (no groups). */
  fieldsOf(dto: Function, omitted: readonly string[] = []): DtoField[] {
    const storage = getMetadataStorage();
    const metadatas = storage.getTargetValidationMetadatas(dto, '', false, false);
    return Object.entries(storage.groupByPropertyName(baseClassesFirst(dto, metadatas)))
      .filter(([name]) => !omitted.includes(name))
      .map(([name, rules]) => this.field(dto, name, rules));
  }

  private objectSchema(dto: Function, omitted: readonly string[]): JsonSchema {
    const fields = this.fieldsOf(dto, omitted);
    const required = fields.filter((field) => field.required).map((field) => field.name);
    return {
      type: 'object',
      properties: Object.fromEntries(fields.map((field) => [field.name, field.nullable ? orNull(field.schema) : field.schema])),
      ...(required.length > 0 ? { required } : {}),
      // The validation pipe forbids fields the DTO does not declare (whitelist, forbidNonWhitelisted).
      additionalProperties: false,
    };
  }

  private field(dto: Function, name: string, rules: ValidationMetadata[]): DtoField {
    const isCondition = (rule: ValidationMetadata) => rule.type === ValidationTypes.CONDITIONAL_VALIDATION;
    const presence = fieldPresence(
      name,
      rules.filter(isCondition).map((rule) => rule.constraints[0] as ValidationCondition),
    );
    const whole: JsonSchema[] = [];
    const perItem: JsonSchema[] = [];
    const unmapped: string[] = [];
    for (const rule of rules.filter((rule) => !isCondition(rule))) {
      const nested = rule.type === ValidationTypes.NESTED_VALIDATION;
      const fragment = nested ? this.nestedRef(dto, name) : validatorSchema(rule.name, rule.constraints);
      // ValidateNested checks each item of an array whether or not it says `each`.
      if (fragment) (rule.each || nested ? perItem : whole).push(fragment);
      else unmapped.push(rule.name ?? rule.type);
    }
    const notes = presence.dependsOn.length > 0 ? [`Whether this field is required and checked depends on ${presence.dependsOn.join(', ')}.`] : [];
    return {
      name,
      // A field whose conditions read other fields is not always required: the schema cannot tell when.
      required: !presence.optional && presence.dependsOn.length === 0,
      nullable: presence.nullable,
      schema: annotated(withItems(mergeSchemas(whole), perItem), notes, unmapped),
    };
  }

  /** Nested validation checks the class `@Type` names; without one, class-transformer leaves a plain object to fail. */
  private nestedRef(dto: Function, property: string): JsonSchema | undefined {
    const type = nestedTypeOf(dto, property);
    return type && this.refTo(type);
  }

  private freeName(wanted: string): string {
    // Names handed out, including those of DTOs still being described (their components are not in yet).
    const taken = (name: string) => this.reserved.has(name) || [...this.names.values()].some((variants) => [...variants.values()].includes(name));
    let name = wanted;
    for (let suffix = 2; taken(name); suffix++) name = `${wanted}${suffix}`;
    return name;
  }
}

/**
 * Adds the validators that check each item (`each: true`, ValidateNested). Like class-validator, they check the
 * items of an array and otherwise the value itself.
 */
function withItems(value: JsonSchema, perItem: JsonSchema[]): JsonSchema {
  if (perItem.length === 0) return value;
  const item = mergeSchemas(perItem);
  if (value.type === 'array') return { ...value, items: item };
  if (value.type !== undefined) return mergeSchemas([value, item]);
  return mergeSchemas([value, { if: { type: 'array' }, then: { type: 'array', items: item }, else: item }]);
}

function annotated(schema: JsonSchema, notes: string[], unmapped: string[]): JsonSchema {
  const description = [schema.description, ...notes].filter(Boolean).join(' ');
  return { ...schema, ...(description ? { description } : {}), ...(unmapped.length > 0 ? { [UNMAPPED_VALIDATORS]: unmapped } : {}) };
}

/** class-validator lists a class's own validators before inherited ones; a reader expects the base fields first. */
function baseClassesFirst(dto: Function, metadatas: ValidationMetadata[]): ValidationMetadata[] {
  const distance = (target: Function | string) => {
    let steps = 0;
    for (let type: unknown = dto; type && type !== target; type = Object.getPrototypeOf(type)) steps++;
    return steps;
  };
  return [...metadatas].sort((a, b) => distance(b.target) - distance(a.target));
}
