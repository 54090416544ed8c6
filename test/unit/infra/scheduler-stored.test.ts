// The scheduler with tasks kept in a store: read a page at a time, merged with the heap's by (due time, rank), stale ones skipped.
import { describe, expect, it } from 'vitest';
import { createClock } from '../../../src/infra/clock.js';
import { createScheduler, type StoredTask, type StoredTasks } from '../../../src/infra/scheduler.js';

/** A store of tasks as rows: what the scheduler reads, counted, and which rows the caller has moved past. */
function taskRows(rows: (StoredTask & { manualOnly?: boolean })[]) {
  const ran: string[] = [];
  const stale = new Set<string>();
  let reads = 0;
  let rowsRead = 0;
  const stored: StoredTasks = {
    due({ manualOnly, after, upTo, limit }) {
      reads += 1;
      const page = rows
        .filter((r) => Boolean(r.manualOnly) === manualOnly && r.dueAt <= upTo)
        .filter((r) => !after || r.dueAt > after.dueAt || (r.dueAt === after.dueAt && r.rank > after.rank))
        .sort((a, b) => a.dueAt - b.dueAt || a.rank - b.rank)
        .slice(0, limit);
      rowsRead += page.length;
      return page.map(({ key, dueAt, rank }) => ({ key, dueAt, rank }));
    },
    live: (key) => !stale.has(key) && !ran.includes(key),
    run: (key) => ran.push(key),
  };
  return { stored, ran, stale, counts: () => ({ reads, rowsRead }) };
}

describe('scheduler with stored tasks', () => {
  it('interleaves stored and heap tasks by due time, then rank, then the order scheduled', () => {
    const clock = createClock({ frozenAt: 0 });
    const scheduler = createScheduler(clock);
    const { stored, ran } = taskRows([
      { key: 's1', dueAt: 100, rank: 1 },
      { key: 's3', dueAt: 100, rank: 3 },
      { key: 's5', dueAt: 300, rank: 5, manualOnly: true },
    ]);
    scheduler.useStored(stored);
    const heap = (key: string) => () => ran.push(key);
    scheduler.at(100, heap('h2'), { rank: 2 });
    scheduler.at(100, heap('h3.5-a'), { rank: 3.5 });
    scheduler.at(100, heap('h3.5-b'), { rank: 3.5 });
    scheduler.at(200, heap('h0'), { rank: 0, manualOnly: true });
    expect(scheduler.nextDueAt()).toBe(100);
    scheduler.advance(1_000);
    expect(ran).toEqual(['s1', 'h2', 's3', 'h3.5-a', 'h3.5-b', 'h0', 's5']);
    expect(scheduler.nextDueAt()).toBeUndefined();
  });

  it('sets the clock to each stored task as it runs, and never runs one twice across advances', () => {
    const clock = createClock({ frozenAt: 0 });
    const scheduler = createScheduler(clock);
    const { stored, ran } = taskRows([
      { key: 'a', dueAt: 10, rank: 1, manualOnly: true },
      { key: 'b', dueAt: 20, rank: 2, manualOnly: true },
    ]);
    const seen: number[] = [];
    scheduler.useStored({
      ...stored,
      run: (key) => {
        stored.run(key);
        seen.push(clock.now());
      },
    });
    scheduler.advance(10);
    scheduler.advance(0);
    scheduler.advance(15);
    expect([ran, seen, clock.now()]).toEqual([['a', 'b'], [10, 20], 25]);
  });

  it('skips a stored task the caller has moved past, and reads past it only once', () => {
    const clock = createClock({ frozenAt: 0 });
    const scheduler = createScheduler(clock);
    const rows = Array.from({ length: 200 }, (_, i) => ({ key: `g${i}`, dueAt: 10 + i, rank: i, manualOnly: true }));
    const { stored, ran, stale, counts } = taskRows(rows);
    for (let i = 0; i < 150; i++) stale.add(`g${i}`);
    scheduler.useStored(stored);
    expect(scheduler.nextDueAt()).toBe(160);
    const afterFirst = counts();
    expect(scheduler.nextDueAt()).toBe(160);
    // The second look starts where the first stopped: one small read, not the 150 stale rows again.
    expect(counts().rowsRead - afterFirst.rowsRead).toBeLessThanOrEqual(4);
    scheduler.advance(1_000);
    expect(ran).toEqual(rows.slice(150).map((r) => r.key));
  });

  it('arms the real timer for a stored task that is not manual-only, and leaves manual-only ones to advance', async () => {
    let real = 1_000;
    const clock = createClock({ realNow: () => real });
    const scheduler = createScheduler(clock);
    const { stored, ran } = taskRows([
      { key: 'manual', dueAt: 1_001, rank: 1, manualOnly: true },
      { key: 'real', dueAt: 1_002, rank: 2 },
    ]);
    real = 5_000;
    scheduler.useStored(stored);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(ran).toEqual(['real']);
    scheduler.advance(0);
    expect(ran).toEqual(['real', 'manual']);
    scheduler.clear();
  });

  it('reads the store from the start again when the clock is set back before what it has run', () => {
    const clock = createClock({ frozenAt: 0 });
    const scheduler = createScheduler(clock);
    const rows = [{ key: 'late', dueAt: 50, rank: 1, manualOnly: true }];
    const { stored, ran } = taskRows(rows);
    scheduler.useStored({ ...stored, live: (key) => !ran.includes(key) || key === 'again' });
    scheduler.advance(100);
    rows.push({ key: 'again', dueAt: 20, rank: 2, manualOnly: true });
    clock.set(10);
    scheduler.advance(20);
    expect(ran).toEqual(['late', 'again']);
  });

  it('forgets the store on clear: a retired scheduler reads nothing more', () => {
    const clock = createClock({ frozenAt: 0 });
    const scheduler = createScheduler(clock);
    const { stored, ran, counts } = taskRows([{ key: 'a', dueAt: 1, rank: 1 }]);
    scheduler.useStored(stored);
    const reads = counts().reads;
    scheduler.clear();
    scheduler.advance(10);
    expect([ran, scheduler.nextDueAt(), counts().reads]).toEqual([[], undefined, reads]);
  });
});
