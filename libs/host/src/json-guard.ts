import type { ErrorDetail } from '@pss/kernel';

/**
 * Deepest nesting a request body may have. The API's deepest body (a policy's `match.domain` list) nests 3
 * levels; validation (class-transformer, class-validator) recurses once per level and overflowed the stack at
 * about 1,500. 32 leaves room for any honest client and none for that.
 */
export const MAX_JSON_DEPTH = 32;

/** Keys that name an object's prototype: merged or transformed later, they would reach `Object.prototype`. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** At most this many problems are reported; a body full of them gets the first ones. */
const MAX_DETAILS = 10;

/**
 * True when the JSON text nests arrays and objects deeper than `limit`. Reads the text once, without parsing
 * and without recursion (brackets inside strings do not count), so neither this check nor the parser behind it
 * spends time or stack on a hostile nesting.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === BACKSLASH) i++;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) inString = true;
    else if (char === OPEN_BRACE || char === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (char === CLOSE_BRACE || char === CLOSE_BRACKET) depth--;
  }
  return false;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Well-formed Unicode: no lone surrogate (a `\uD800` escape without its pair). `String.prototype.isWellFormed`
 * is ES2024, beyond the ES2022 library the project compiles against.
 */
export function isWellFormedText(text: string): boolean {
  return !SURROGATE.test(text) || !LONE_SURROGATE.test(text);
}

const SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What a parsed JSON body carries that no field may hold, one detail per offending field (dotted path, as
 * validation reports them): prototype keys and text that is not well-formed Unicode (I-JSON, RFC 7493). Walks
 * the value with an explicit stack; the depth was bounded before parsing.
 */
export function forbiddenContent(value: unknown): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const pending: Array<{ value: unknown; path: string }> = [{ value, path: '' }];
  while (pending.length > 0 && details.length < MAX_DETAILS) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === 'string') {
      if (!isWellFormedText(current)) details.push(fieldDetail(path, 'must be well-formed Unicode text (it holds a lone surrogate)'));
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    for (const [key, item] of Object.entries(current)) {
      const itemPath = path ? `${path}.${key}` : key;
      if (PROTOTYPE_KEYS.has(key)) details.push({ field: itemPath, message: `${key} is not accepted as a field name` });
      else if (!isWellFormedText(key)) details.push(fieldDetail(path, 'has a field name that is not well-formed Unicode text'));
      else pending.push({ value: item, path: itemPath });
    }
  }
  return details;
}

const fieldDetail = (path: string, problem: string): ErrorDetail =>
  path ? { field: path, message: `${path} ${problem}` } : { message: `The body ${problem}` };
