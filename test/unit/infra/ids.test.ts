// Random ids: the public shape (prefix, 20 base-36 characters), ordered by when they were made, unique within a millisecond.
import { describe, expect, it } from 'vitest';
import { createRandomIds, createSequentialIds } from '../../../src/infra/ids.js';

describe('random ids', () => {
  it('are the prefix and 20 base-36 characters, the first 8 the millisecond they were made', () => {
    const id = createRandomIds(() => Date.UTC(2026, 10, 25)).next('gen');
    expect(id).toMatch(/^gen_[0-9a-z]{20}$/);
    expect(id.slice(4, 12)).toBe(Date.UTC(2026, 10, 25).toString(36));
  });

  it('sort in the order they were made, so the store indexes them at its right edge', () => {
    let ms = Date.UTC(2026, 0, 1);
    const ids = createRandomIds(() => ms);
    const made = Array.from({ length: 50 }, (_, i) => {
      ms += 1 + ((i * 7_919) % 5_000);
      return ids.next('gen');
    });
    expect([...made].sort()).toEqual(made);
  });

  it('differ within one millisecond, by their 12 random characters', () => {
    const ids = createRandomIds(() => 0);
    const made = new Set(Array.from({ length: 10_000 }, () => ids.next('req')));
    expect(made.size).toBe(10_000);
    for (const id of made) expect(id.startsWith('req_00000000')).toBe(true);
  });

  it('keep their 20 characters past 2059, when the stem wraps', () => {
    expect(createRandomIds(() => 36 ** 8 + 5).next('upl')).toMatch(/^upl_00000005[0-9a-z]{12}$/);
  });

  it('are not used with a seed: those are sequential', () => {
    expect(createSequentialIds().next('gen')).toBe('gen_000001');
  });
});
