import { validationError } from './errors';

/**
 * Keyset cursors: the sort value and `_id` of the last item of a page, base64url-encoded JSON. Opaque to
 * clients; anything that does not decode to exactly that shape, for the list's order, is a tampered cursor (400):
 * the id a UUID, the value the id again (lists in id order), a timestamp as the API writes them (`…_at`
 * fields, and the audit log's `time`), or else a number. Shared by the API's lists and the dashboard's.
 */
export type CursorKey = [value: string | number, id: string];

export const encodeCursor = (key: CursorKey): string => Buffer.from(JSON.stringify(key)).toString('base64url');

export function decodeCursor(cursor: string, field: string): CursorKey {
  const invalid = () => validationError([{ field: 'cursor', message: 'cursor is not a cursor this API returned' }]);
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (
    !Array.isArray(key) ||
    key.length !== 2 ||
    !(typeof key[0] === 'string' || (typeof key[0] === 'number' && Number.isFinite(key[0]))) ||
    typeof key[1] !== 'string' ||
    !UUID.test(key[1]) ||
    !fitsField(key[0], key[1], field)
  ) {
    throw invalid();
  }
  return key as CursorKey;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function fitsField(value: string | number, id: string, field: string): boolean {
  if (field === '_id') return value === id;
  // As the API writes them: a real instant (2026-13-45 fits the pattern, not the calendar), in its own form.
  if (field.endsWith('_at') || field === 'time') return typeof value === 'string' && TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value)) && new Date(value).toISOString() === value;
  return typeof value === 'number';
}
