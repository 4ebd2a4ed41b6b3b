/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) as plain data. */
export type JsonSchema = { [keyword: string]: unknown };

// Keywords that decide on their own, so adding 'null' to `type` would not make null pass them.
const BEYOND_TYPE = ['enum', 'const', '$ref', 'allOf', 'anyOf', 'oneOf', 'not', 'if'];

/** The schema, also accepting null: by widening `type` where that alone decides, else as an alternative. */
export function orNull(schema: JsonSchema): JsonSchema {
  if (Object.keys(schema).length === 0) return schema;
  const typeDecides = typeof schema.type === 'string' && !BEYOND_TYPE.some((keyword) => keyword in schema);
  return typeDecides ? { ...schema, type: [schema.type, 'null'] } : { anyOf: [schema, { type: 'null' }] };
}
