import { deterministicUuid, isUuid, uuidv7 } from './ids';

describe('uuidv7', () => {
  it('makes RFC 9562 version 7 UUIDs carrying the millisecond', () => {
    const id = uuidv7(Date.parse('2026-01-01T00:00:00.000Z'));
    expect(isUuid(id)).toBe(true);
    expect(id[14]).toBe('7');
    expect(['8', '9', 'a', 'b']).toContain(id[19]);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBeGreaterThanOrEqual(Date.parse('2026-01-01T00:00:00.000Z'));
  });

  it('keeps ids made in the same millisecond in creation order, and unique', () => {
    const at = Date.parse('2026-06-01T00:00:00.000Z');
    const ids = Array.from({ length: 5000 }, () => uuidv7(at));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('deterministicUuid', () => {
  it('names the same parts with the same version 8 UUID, and different parts differently', () => {
    const id = deterministicUuid('store-1', 'src:https://cdn.example.com/app.js');
    expect(isUuid(id)).toBe(true);
    expect(id[14]).toBe('8');
    expect(deterministicUuid('store-1', 'src:https://cdn.example.com/app.js')).toBe(id);
    expect(deterministicUuid('store-2', 'src:https://cdn.example.com/app.js')).not.toBe(id);
    expect(deterministicUuid('a', 'bc')).not.toBe(deterministicUuid('ab', 'c'));
  });
});
