import fc from 'fast-check';

/** The subset of JSON Schema the OpenAPI document uses (see openapi/validator-schemas.ts). */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  allOf?: Schema[];
}

export type Components = Record<string, Schema>;

/** The document's component schemas, and values to use for fields by name where the schema says too little. */
export interface SchemaSource {
  components: Components;
  hints: Record<string, fc.Arbitrary<unknown>>;
}

/** Arrays stay short: the aim is variety of values, not volume (huge inputs come from hostile-values.ts). */
const MAX_ITEMS = 3;

/**
 * Values the schema describes, as a client that read the document would send them, so that a request gets past
 * validation into the handlers, where a hostile value placed in one field (see fuzz-request.ts) does its harm.
 */
export function schemaValue(schema: Schema, source: SchemaSource, depth = 0): fc.Arbitrary<unknown> {
  if (schema.$ref) return schemaValue({ ...source.components[schema.$ref.replace('#/components/schemas/', '')], ...withoutRef(schema) }, source, depth);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((option) => schemaValue(option, source, depth)));
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : ['string'];
  return fc.oneof(...types.map((type) => typedValue(type, schema, source, depth)));
}

const withoutRef = ({ $ref: _ref, ...rest }: Schema): Schema => rest;

function typedValue(type: string, schema: Schema, source: SchemaSource, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true, noDefaultInfinity: true });
    case 'array': {
      const items = schemaValue(schema.items ?? {}, source, depth + 1);
      const minLength = schema.minItems ?? 0;
      return fc.array(items, { minLength, maxLength: Math.max(minLength, Math.min(schema.maxItems ?? MAX_ITEMS, MAX_ITEMS)) });
    }
    case 'object':
      return objectValue(schema, source, depth);
    default:
      return stringValue(schema);
  }
}

function objectValue(schema: Schema, source: SchemaSource, depth: number): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  if (depth > 4) return fc.constant({});
  const valueOf = (name: string, property: Schema) =>
    source.hints[name] ? fc.oneof({ weight: 3, arbitrary: source.hints[name] }, { weight: 1, arbitrary: schemaValue(property, source, depth + 1) }) : schemaValue(property, source, depth + 1);
  const record = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, valueOf(name, property)]));
  return fc.record(record, { requiredKeys: (schema.required ?? []).filter((name) => name in properties) });
}

const FORMATS: Record<string, fc.Arbitrary<string>> = {
  uuid: fc.uuid(),
  email: fc.emailAddress(),
  'date-time': fc.date({ min: new Date('2020-01-01'), max: new Date('2035-01-01'), noInvalidDate: true }).map((date) => date.toISOString()),
  // Hosts that resolve nowhere (or refuse at once): a webhook test or delivery the fuzz triggers never waits on the network.
  uri: fc.tuple(fc.constantFrom('https://cdn.example.test', 'https://www.loja.example.invalid', 'https://127.0.0.1:9'), fc.webPath()).map(([origin, path]) => origin + path),
};

function stringValue(schema: Schema): fc.Arbitrary<string> {
  if (schema.format && FORMATS[schema.format]) return FORMATS[schema.format];
  const maxLength = Math.min(schema.maxLength ?? 40, 40);
  const minLength = Math.min(schema.minLength ?? 0, maxLength);
  if (schema.pattern) {
    return fc.stringMatching(new RegExp(schema.pattern)).filter((text) => text.length >= minLength && text.length <= (schema.maxLength ?? Infinity));
  }
  return fc.string({ minLength, maxLength });
}
