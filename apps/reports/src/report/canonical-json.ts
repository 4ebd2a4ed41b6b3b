import { createHash } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

/**
 * The canonical JSON of a report's data, which its sha256 is computed over (docs/reports.md tells an assessor
 * how to check it): object keys sorted by UTF-16 code units at every level, arrays in their order, no
 * whitespace, strings and numbers as JSON.stringify writes them (UTF-8 bytes). Like RFC 8785 for data that
 * holds only strings, integers, booleans and null, as report data does.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** The same text as `canonicalJson(data)`, built a slice of each top-level array at a time, yielding between. */
export async function canonicalJsonInSlices(data: Record<string, unknown>, slice = 500): Promise<string> {
  const keys = Object.keys(data)
    .filter((key) => data[key] !== undefined)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const members: string[] = [];
  for (const key of keys) {
    const value = data[key];
    if (!Array.isArray(value)) {
      members.push(`${JSON.stringify(key)}:${canonicalJson(value)}`);
      continue;
    }
    const items: string[] = [];
    for (let index = 0; index < value.length; index += slice) {
      for (const item of value.slice(index, index + slice)) items.push(canonicalJson(item));
      await yieldToEventLoop();
    }
    members.push(`${JSON.stringify(key)}:[${items.join(',')}]`);
  }
  return `{${members.join(',')}}`;
}
