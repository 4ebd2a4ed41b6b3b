import { validationError } from '@pss/kernel';

/**
 * Keyset cursors: the sort value and `_id` of the last item of a page, base64url-encoded JSON. Opaque to
 * clients; anything that does not decode to exactly that shape is a tampered cursor (400).
 */
export type CursorKey = [value: string | number, id: string];

export const encodeCursor = (key: CursorKey): string => Buffer.from(JSON.stringify(key)).toString('base64url');

export function decodeCursor(cursor: string): CursorKey {
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
    typeof key[1] !== 'string'
  ) {
    throw invalid();
  }
  return key as CursorKey;
}
