import type { JsonSchema } from './json-schema';

const SAMPLE_UUID = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const SAMPLE_TIME = '2026-11-23T09:00:00.000Z';

// A value for each pattern the documents use; the tests validate every example, so a new pattern shows up here.
const PATTERN_SAMPLES: Record<string, string> = {
  '^evt_[0-9a-f]{32}$': 'evt_0190a1b2c3d47e5f8a9b0c1d2e3f4a5b',
  '^pk_live_[0-9a-f]{32}$': 'pk_live_0123456789abcdef0123456789abcdef',
  '^[0-9a-f]{64}$': '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  '^sha(256|384|512)-': 'sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC',
  '^sha256-[A-Za-z0-9+/]{43}=$': 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=',
  '^pss-verify=[0-9a-f]{32}$': 'pss-verify=4f0c9a1e2b3d4c5e6f708192a3b4c5d6',
};

/** A value of the schema for documentation examples: required fields only, the first of every choice. */
export function exampleOf(schema: JsonSchema, components: Record<string, JsonSchema>): unknown {
  if (typeof schema.$ref === 'string') return exampleOf(components[schema.$ref.split('/').pop() ?? ''], components);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (Array.isArray(schema.anyOf)) return exampleOf(schema.anyOf[0], components);
  if (Array.isArray(schema.oneOf)) return exampleOf(schema.oneOf[0], components);
  if (Array.isArray(schema.allOf)) return Object.assign({}, ...schema.allOf.map((part: JsonSchema) => exampleOf(part, components)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'object') {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = (schema.required ?? []) as string[];
    return Object.fromEntries(required.filter((name) => properties[name]).map((name) => [name, exampleOf(properties[name], components)]));
  }
  if (type === 'array') return [];
  if (type === 'integer' || type === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 1;
  if (type === 'boolean') return false;
  if (schema.format === 'uuid') return SAMPLE_UUID;
  if (schema.format === 'date-time') return SAMPLE_TIME;
  if (schema.format === 'uri') return 'https://www.loja.example/checkout';
  if (schema.format === 'email') return 'owner@loja.example';
  const sample = typeof schema.pattern === 'string' ? PATTERN_SAMPLES[schema.pattern] : undefined;
  if (sample) return sample;
  return 'x'.repeat(typeof schema.minLength === 'number' ? schema.minLength : 4);
}
