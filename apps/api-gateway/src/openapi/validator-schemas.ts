import {
  ARRAY_MAX_SIZE,
  ARRAY_MIN_SIZE,
  IS_ARRAY,
  IS_BOOLEAN,
  IS_EMAIL,
  IS_IN,
  IS_INT,
  IS_ISO8601,
  IS_LENGTH,
  IS_NOT_EMPTY,
  IS_NUMBER,
  IS_OBJECT,
  IS_STRING,
  IS_UUID,
  MATCHES,
  MAX,
  MAX_LENGTH,
  MIN,
  MIN_LENGTH,
} from 'class-validator';
import type { JsonSchema } from './json-schema';
import { patternOf } from './regex-pattern';

// A validator's constraints as its decorator stored them (`@MaxLength(120)` stores [120]).
type Describe = (constraints: unknown[]) => JsonSchema | undefined;

/**
 * What each validator accepts, as a JSON Schema fragment, keyed by the name it registers under. A validator
 * missing here (or one whose constraints cannot be written down) is flagged on its field instead.
 */
const VALIDATOR_SCHEMAS: Record<string, Describe> = {
  [IS_STRING]: () => ({ type: 'string' }),
  // Besides null and undefined (presence covers those), the empty string is all IsNotEmpty refuses.
  [IS_NOT_EMPTY]: () => ({ minLength: 1 }),
  // The length validators refuse anything but strings, so they say the type too.
  [MIN_LENGTH]: ([min]) => ({ type: 'string', minLength: min }),
  [MAX_LENGTH]: ([max]) => ({ type: 'string', maxLength: max }),
  [IS_LENGTH]: ([min, max]) => ({ type: 'string', minLength: min, ...(max === undefined ? {} : { maxLength: max }) }),
  [MATCHES]: ([pattern, modifiers]) => {
    const source = patternOf(typeof pattern === 'string' ? new RegExp(pattern, modifiers as string | undefined) : (pattern as RegExp));
    return source === undefined ? undefined : { type: 'string', pattern: source };
  },
  [IS_INT]: () => ({ type: 'integer' }),
  // JSON has no NaN or Infinity, so IsNumber's options about them change nothing here.
  [IS_NUMBER]: () => ({ type: 'number' }),
  // Min and Max refuse anything but numbers.
  [MIN]: ([min]) => ({ type: 'number', minimum: min }),
  [MAX]: ([max]) => ({ type: 'number', maximum: max }),
  [IS_IN]: ([values]) => ({ enum: [...(values as unknown[])] }),
  [IS_BOOLEAN]: () => ({ type: 'boolean' }),
  [IS_ARRAY]: () => ({ type: 'array' }),
  [ARRAY_MIN_SIZE]: ([min]) => ({ type: 'array', minItems: min }),
  [ARRAY_MAX_SIZE]: ([max]) => ({ type: 'array', maxItems: max }),
  [IS_UUID]: () => ({ type: 'string', format: 'uuid' }),
  // The API asks for date-times (its messages say so); the validator would also take the other ISO 8601 forms.
  [IS_ISO8601]: () => ({ type: 'string', format: 'date-time' }),
  [IS_EMAIL]: () => ({ type: 'string', format: 'email' }),
  [IS_OBJECT]: () => ({ type: 'object' }),
  // The gateway's own validators (registerDecorator in http/field-validators.ts and webhooks/webhook.dto.ts).
  isTimeZone: () => ({ type: 'string', description: 'An IANA time zone name, e.g. America/Sao_Paulo.' }),
  isHttpsUrl: () => ({ type: 'string', format: 'uri', description: 'An absolute https URL, without a user name or password.' }),
};

/** The fragment for one validator, or undefined when it has none. */
export function validatorSchema(name: string | undefined, constraints: unknown[] | undefined): JsonSchema | undefined {
  return name !== undefined && Object.hasOwn(VALIDATOR_SCHEMAS, name) ? VALIDATOR_SCHEMAS[name](constraints ?? []) : undefined;
}
