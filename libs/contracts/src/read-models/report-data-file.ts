import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { canonicalJson } from '@pss/kernel';

/**
 * A snapshot's data is stored in two parts so that equal reports share one file: the members of `meta` that name
 * the snapshot (kept in its record) and the body, everything else, in a file named by the body's sha256. The
 * snapshot's `sha256` stays the hash of the whole data, put back together exactly as docs/reports.md defines it.
 */
export interface SnapshotOwnMeta {
  report_id: string;
  generated_at: string;
}

/** The file store key of a report body: content-addressed, so it is written once and never with other bytes. */
export const reportBodyKey = (bodySha256: string): string => `reports/bodies/${bodySha256}.json`;

/** The data without the members that name one snapshot. */
export function reportBodyOf<Data extends { meta: object }>(data: Data): Data {
  const { report_id: _id, generated_at: _at, ...shared } = data.meta as Partial<SnapshotOwnMeta>;
  return { ...data, meta: shared };
}

/**
 * The canonical JSON of a snapshot's data from its stored file: the body with the snapshot's own members put back
 * into `meta` (null: the file holds the whole data, as snapshots made before bodies were shared do). Spliced, not
 * parsed and serialized again: a year's report is megabytes, its meta a few hundred bytes.
 */
export async function reportDataJson(stored: string, own: SnapshotOwnMeta | null): Promise<string> {
  if (!own) return stored;
  const meta = await topLevelObject(stored, 'meta');
  if (!meta) throw new Error('a report body without meta');
  const whole = canonicalJson({ ...(JSON.parse(stored.slice(meta.start, meta.end)) as object), ...own });
  return `${stored.slice(0, meta.start)}${whole}${stored.slice(meta.end)}`;
}

/** Characters scanned between two yields to the event loop. */
const SCAN_SLICE = 1 << 20;

/** Where the object value of a top-level member is, in canonical JSON text (no whitespace). */
async function topLevelObject(text: string, key: string): Promise<{ start: number; end: number } | null> {
  const wanted = `${JSON.stringify(key)}:{`;
  let depth = 0;
  let start = -1;
  let yieldedAt = 0;
  for (let index = 0; index < text.length; index += 1) {
    if (index - yieldedAt >= SCAN_SLICE) {
      yieldedAt = index;
      await yieldToEventLoop();
    }
    const char = text[index];
    if (char === '"') {
      const atKey = depth === 1 && start < 0 && (text[index - 1] === '{' || text[index - 1] === ',');
      if (atKey && text.startsWith(wanted, index)) start = index + wanted.length - 1;
      index = closingQuote(text, index);
    } else if (char === '{' || char === '[') {
      depth += 1;
    } else if (char === '}' || char === ']') {
      depth -= 1;
      if (depth === 1 && start >= 0) return { start, end: index + 1 };
    }
  }
  return null;
}

/** The quote that ends the string opened at `open`: one not escaped by an odd run of backslashes. */
function closingQuote(text: string, open: number): number {
  for (let from = open + 1; ; ) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return text.length;
    let backslashes = 0;
    while (text[quote - 1 - backslashes] === '\\') backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}
