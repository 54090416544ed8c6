// Unit tests of the render backlog: FIFO order at any length, and storage bounded by what waits (no leak).
import { describe, expect, it } from 'vitest';
import { Backlog } from '../../../src/domain/backlog.js';

/** The slots the backlog holds, consumed or not: the memory a busy emulator keeps for its waiting renders. */
const storage = (backlog: Backlog<number>) => (backlog as unknown as { items: unknown[] }).items.length;

/** The file's promise: consumed slots are dropped once past 1,024 and most of the array. */
const withinBound = (backlog: Backlog<number>) => storage(backlog) <= backlog.size + Math.max(1024, backlog.size);

describe('Backlog', () => {
  it('hands out 5,000 items in the order they came, then nothing', () => {
    const backlog = new Backlog<number>();
    for (let i = 0; i < 5000; i++) backlog.push(i);
    const out: (number | undefined)[] = [];
    for (let i = 0; i < 5000; i++) out.push(backlog.shift());
    expect(out).toEqual(Array.from({ length: 5000 }, (_, i) => i));
    expect(backlog.size).toBe(0);
    expect(backlog.shift()).toBeUndefined();
  });

  it('keeps its storage bounded while it drains a long queue', () => {
    const backlog = new Backlog<number>();
    for (let i = 0; i < 5000; i++) backlog.push(i);
    for (let i = 0; i < 5000; i++) {
      expect(backlog.shift()).toBe(i);
      expect(withinBound(backlog)).toBe(true);
    }
  });

  it('keeps its storage bounded under a steady flow of 100,000 renders through a queue of 2,000', () => {
    const backlog = new Backlog<number>();
    for (let i = 0; i < 2000; i++) backlog.push(i);
    for (let i = 2000; i < 102_000; i++) {
      backlog.push(i);
      expect(backlog.shift()).toBe(i - 2000);
    }
    expect(withinBound(backlog)).toBe(true);
    expect(backlog.size).toBe(2000);
  });

  it('forgets everything on clear and starts again', () => {
    const backlog = new Backlog<number>();
    backlog.push(1);
    backlog.push(2);
    backlog.clear();
    expect(backlog.size).toBe(0);
    expect(backlog.shift()).toBeUndefined();
    backlog.push(3);
    expect(backlog.shift()).toBe(3);
  });
});
