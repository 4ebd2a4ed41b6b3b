import type { DtoField } from './dto-schemas';

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  schema: unknown;
}

/**
 * The operation's parameters with one query parameter per field of its `@Query()` DTO. A query string carries no
 * null, so only the value schema is kept. A field also written by hand (`org_id`) stays one parameter: the DTO
 * decides its schema and whether it is required, the hand-written entry keeps its description.
 */
export function withQueryFields(parameters: Parameter[], fields: DtoField[]): Parameter[] {
  const byKey = new Map(parameters.map((parameter) => [`${parameter.in}:${parameter.name}`, parameter]));
  for (const { name, required, schema } of fields) {
    byKey.set(`query:${name}`, { ...byKey.get(`query:${name}`), name, in: 'query', required, schema });
  }
  return [...byKey.values()];
}
