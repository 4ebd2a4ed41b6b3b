import { isDeepStrictEqual } from 'node:util';
import type { JsonSchema } from './json-schema';

// Two validators bounding the same length or value: the tighter bound is the one that holds.
const TIGHTER: Record<string, (a: number, b: number) => number> = {
  minimum: Math.max,
  minLength: Math.max,
  minItems: Math.max,
  maximum: Math.min,
  maxLength: Math.min,
  maxItems: Math.min,
};

/**
 * One schema that holds exactly when all the fragments do (one fragment per validator on a field): flat where
 * keywords combine, under `allOf` where they cannot (two patterns, say).
 */
export function mergeSchemas(fragments: JsonSchema[]): JsonSchema {
  const merged: JsonSchema = {};
  const apart: JsonSchema[] = [];
  for (const fragment of fragments) {
    for (const [keyword, value] of Object.entries(fragment)) {
      const current = merged[keyword];
      if (current === undefined || isDeepStrictEqual(current, value)) merged[keyword] = value;
      else if (keyword in TIGHTER) merged[keyword] = TIGHTER[keyword](current as number, value as number);
      else if (keyword === 'type' && isIntegerAndNumber(current, value)) merged.type = 'integer';
      else apart.push({ [keyword]: value });
    }
  }
  return apart.length > 0 ? { ...merged, allOf: apart } : merged;
}

const isIntegerAndNumber = (a: unknown, b: unknown) => (a === 'integer' && b === 'number') || (a === 'number' && b === 'integer');
