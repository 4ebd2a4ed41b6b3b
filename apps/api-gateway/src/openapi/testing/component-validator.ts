import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { JsonSchema } from '../json-schema';

/**
 * A strict JSON Schema 2020-12 validator (Ajv, which Fastify already brings) for the schemas of an OpenAPI
 * document. The components are checked against the 2020-12 meta-schema and compiled in strict mode (unknown
 * keywords, invalid patterns and unknown formats fail); `#/components/schemas/X` references are pointed at the
 * `$defs` of one bundle, where Ajv resolves them.
 */
export function componentValidator(components: Record<string, JsonSchema>) {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
  addFormats(ajv);
  const retarget = (schema: unknown) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"components#/$defs/'));
  ajv.addSchema(retarget({ $id: 'components', $defs: components }));
  const compile = (schema: unknown): ValidateFunction => ajv.compile(retarget(schema));
  return {
    /** Compiles a schema that may refer to the components (a parameter's, say); throws if it is not valid. */
    compile,
    /** Compiles the component of that name; throws if it is not valid. */
    component: (name: string): ValidateFunction => compile({ $ref: `#/components/schemas/${name}` }),
  };
}
