import { createHash } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { canonicalJson } from '@pss/kernel';

/**
 * A report's sha256 is computed over the canonical JSON of its data (`canonicalJson` of the kernel; docs/reports.md
 * tells an assessor how to check it), built here a slice at a time for large reports.
 */
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

/** Text up to this length is parsed in one go (a few milliseconds). */
const PARSE_AT_ONCE = 256 * 1024;
/** Characters scanned between two yields. */
const SCAN_SLICE = 1 << 20;

/**
 * `JSON.parse` of a stored report's JSON (an object whose large members are arrays), a slice at a time: a year's
 * report is megabytes, and parsing it in one go would hold the event loop for a hundred milliseconds or more.
 * The text is scanned once for the top-level members and the items of top-level arrays, then parsed in batches
 * of items, yielding between them. The result is what `JSON.parse` gives.
 */
export async function parseJsonInSlices<T extends object = Record<string, unknown>>(text: string): Promise<T> {
  if (text.length <= PARSE_AT_ONCE || text[0] !== '{') return JSON.parse(text) as T;
  const result: Record<string, unknown> = {};
  for (const member of await topLevelMembers(text)) {
    if (!member.items) {
      Object.assign(result, JSON.parse(`{${text.slice(member.start, member.end)}}`));
      continue;
    }
    const key = JSON.parse(text.slice(member.start, member.items.open).replace(/:\s*$/, '')) as string;
    const values: unknown[] = [];
    const { starts, close } = member.items;
    for (let first = 0; first < starts.length; ) {
      let last = first;
      while (last + 1 < starts.length && starts[last + 1] - starts[first] < PARSE_AT_ONCE) last += 1;
      const end = last + 1 < starts.length ? starts[last + 1] - 1 : close;
      values.push(...(JSON.parse(`[${text.slice(starts[first], end)}]`) as unknown[]));
      first = last + 1;
      await yieldToEventLoop();
    }
    result[key] = values;
  }
  return result as T;
}

interface Member {
  /** `"key":value` is text[start, end). */
  start: number;
  end: number;
  /** For an array value: where `[` is, where each item starts, where `]` is. */
  items?: { open: number; starts: number[]; close: number };
}

async function topLevelMembers(text: string): Promise<Member[]> {
  const members: Member[] = [];
  let depth = 0;
  let inString = false;
  let member: Member = { start: 1, end: 1 };
  for (let index = 0; index < text.length; index += 1) {
    if (index % SCAN_SLICE === 0 && index > 0) await yieldToEventLoop();
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 92) index += 1; // backslash: skip the escaped character
      else if (code === 34) inString = false;
      continue;
    }
    if (code === 34) {
      inString = true;
    } else if (code === 123 || code === 91) {
      depth += 1;
      if (depth === 2 && code === 91) member.items = { open: index, starts: [index + 1], close: index };
    } else if (code === 125 || code === 93) {
      if (depth === 2 && member.items && code === 93) member.items.close = index;
      depth -= 1;
      if (depth === 0) {
        member.end = index;
        if (text.slice(member.start, member.end).trim()) members.push(member);
      }
    } else if (code === 44) {
      if (depth === 1) {
        member.end = index;
        members.push(member);
        member = { start: index + 1, end: index + 1 };
      } else if (depth === 2 && member.items) {
        member.items.starts.push(index + 1);
      }
    }
  }
  return members;
}
