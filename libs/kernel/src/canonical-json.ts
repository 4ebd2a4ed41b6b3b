/**
 * JSON with object keys sorted by UTF-16 code units at every level, arrays in their order, no whitespace,
 * strings and numbers as JSON.stringify writes them; `undefined` members left out. Two values that differ only
 * in key order have the same text (like RFC 8785 for data that holds only strings, integers, booleans and null).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}

/** The same JSON data, whatever the order of its objects' keys. */
export const sameJson = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b);
