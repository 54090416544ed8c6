// The bounded cache lets go of the least recently used record, whether the last read was of the newest one or not.
import { describe, expect, it } from 'vitest';
import { RecentCache } from '../../../src/domain/recent-cache.js';

const keysKept = (cache: RecentCache<string, number>, keys: string[]) => keys.filter((k) => cache.get(k) !== undefined);

describe('RecentCache', () => {
  it('evicts the least recently used, counting reads of the newest key and of older ones', () => {
    const cache = new RecentCache<string, number>(3);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    cache.get('a');
    cache.get('a'); // already the newest: the order stays c, a last
    cache.set('d', 4); // evicts b
    cache.get('c');
    cache.set('e', 5); // evicts a
    expect(cache.size).toBe(3);
    expect(keysKept(cache, ['a', 'b', 'c', 'd', 'e'])).toEqual(['c', 'd', 'e']);
  });

  it('reads a key deleted or cleared as missing, and takes it again as the newest', () => {
    const cache = new RecentCache<string, number>(2);
    cache.set('a', 1);
    cache.delete('a');
    expect(cache.get('a')).toBeUndefined();
    cache.set('a', 2);
    cache.set('b', 3);
    cache.get('a');
    cache.set('c', 4); // evicts b: a was read after it
    expect(keysKept(cache, ['a', 'b', 'c'])).toEqual(['a', 'c']);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.get('c')).toBeUndefined();
  });

  it('keeps nothing for a key it was asked about and does not hold', () => {
    const cache = new RecentCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('x')).toBeUndefined();
    expect(cache.size).toBe(2);
    cache.set('c', 3); // evicts a, the least recently used: the miss took no place
    expect(keysKept(cache, ['a', 'b', 'c', 'x'])).toEqual(['b', 'c']);
  });

  it('answers a world that never cached anything as empty, and still evicts once filled', () => {
    const cache = new RecentCache<string, number>(1);
    expect(cache.size).toBe(0);
    expect(cache.get('a')).toBeUndefined();
    cache.delete('a');
    cache.clear();
    expect(cache.size).toBe(0);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(keysKept(cache, ['a', 'b'])).toEqual(['b']);
  });
});
