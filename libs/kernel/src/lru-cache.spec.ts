import { LruCache } from './lru-cache';

describe('LruCache', () => {
  it('never holds more than its size, forgetting the least recently used entry first', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // a is now more recent than b
    cache.set('c', 3);
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
  });

  it('stays at its size whatever is written, and a rewrite refreshes an entry without growing', () => {
    const cache = new LruCache<number, number>(100);
    for (let i = 0; i < 10_000; i += 1) cache.set(i, i);
    expect(cache.size).toBe(100);
    expect(cache.get(9_900)).toBe(9_900);
    expect(cache.get(9_899)).toBeUndefined();
    cache.set(9_950, -1);
    expect(cache.size).toBe(100);
    expect(cache.get(9_950)).toBe(-1);
  });

  it('forgets a deleted entry and refuses a size below one', () => {
    const cache = new LruCache<string, string>(1);
    cache.set('k', 'v');
    cache.delete('k');
    expect(cache.get('k')).toBeUndefined();
    expect(() => new LruCache(0)).toThrow();
  });
});
