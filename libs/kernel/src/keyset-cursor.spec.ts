import { decodeCursor, encodeCursor } from './keyset-cursor';

const id = '0190a4b2-8d3c-7e1f-9a2b-3c4d5e6f7a8b';
const forged = (key: unknown) => Buffer.from(JSON.stringify(key)).toString('base64url');

describe('cursor', () => {
  it('reads back what it wrote, for each kind of order', () => {
    expect(decodeCursor(encodeCursor(['2026-05-04T12:00:00.000Z', id]), 'created_at')).toEqual(['2026-05-04T12:00:00.000Z', id]);
    expect(decodeCursor(encodeCursor([3, id]), 'priority')).toEqual([3, id]);
    expect(decodeCursor(encodeCursor([id, id]), '_id')).toEqual([id, id]);
  });

  it.each([
    ['not base64url', '!!', 'created_at'],
    ['not JSON', Buffer.from('[1,').toString('base64url'), 'created_at'],
    ['one element', forged([id]), 'created_at'],
    ['an object', forged({ a: 1 }), 'created_at'],
    ['an id that is not a UUID', forged(['2026-05-04T12:00:00.000Z', 'b']), 'created_at'],
    ['a time that is not the API’s', forged(['a', id]), 'created_at'],
    ['an empty time', forged(['', id]), 'first_seen_at'],
    ['a time no calendar has', forged(['2026-13-45T18:18:19.349Z', id]), 'first_seen_at'],
    ['a time the calendar rolls over', forged(['2026-02-30T10:00:00.000Z', id]), 'first_seen_at'],
    ['a number for a time', forged([1, id]), 'created_at'],
    ['a string for a number', forged(['1', id]), 'priority'],
    ['another id as the value of an id order', forged(['0190a4b2-8d3c-7e1f-9a2b-000000000000', id]), '_id'],
    ['an operator object', forged([{ $gt: '' }, id]), 'created_at'],
  ])('refuses %s as tampered', (_case, cursor, field) => {
    expect(() => decodeCursor(cursor, field)).toThrow(expect.objectContaining({ code: 'validation_error' }));
  });
});
