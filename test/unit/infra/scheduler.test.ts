// The scheduler on the emulator clock: due tasks run in time order on advance, manual-only tasks wait, cancel, re-arm.
import { describe, expect, it } from 'vitest';
import { createClock } from '../../../src/infra/clock.js';
import { createScheduler } from '../../../src/infra/scheduler.js';

describe('scheduler on the emulator clock', () => {
  it('runs due tasks in time order during advance, setting the clock to each task time', () => {
    const clock = createClock({ frozenAt: 1_000 });
    const scheduler = createScheduler(clock);
    const seen: [string, number][] = [];
    scheduler.at(1_300, () => seen.push(['c', clock.now()]));
    scheduler.at(1_100, () => {
      seen.push(['a', clock.now()]);
      scheduler.at(1_200, () => seen.push(['b', clock.now()]));
    });
    scheduler.at(5_000, () => seen.push(['late', clock.now()]));
    scheduler.advance(500);
    expect(seen).toEqual([
      ['a', 1_100],
      ['b', 1_200],
      ['c', 1_300],
    ]);
    expect(clock.now()).toBe(1_500);
    expect(scheduler.pending()).toBe(1);
  });

  it('keeps manual-only tasks for advance, even when real time has passed their due time', async () => {
    let real = 10_000;
    const clock = createClock({ realNow: () => real });
    const scheduler = createScheduler(clock);
    let ran = 0;
    scheduler.at(10_001, () => ran++, { manualOnly: true });
    real = 20_000;
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toBe(0);
    scheduler.advance(0);
    expect(ran).toBe(1);
    scheduler.clear();
  });

  it('runs work that is already due on a frozen clock without an advance', async () => {
    const clock = createClock({ frozenAt: 0 });
    const scheduler = createScheduler(clock);
    let ran = false;
    scheduler.at(0, () => (ran = true));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(ran).toBe(true);
  });

  it('cancels tasks', () => {
    const clock = createClock({ frozenAt: 0 });
    const scheduler = createScheduler(clock);
    let ran = false;
    scheduler.at(10, () => (ran = true)).cancel();
    scheduler.advance(100);
    expect(ran).toBe(false);
  });

  it('re-arms itself when a frozen clock is set past a due time, with no call from the caller', async () => {
    const clock = createClock({ frozenAt: 0 });
    const scheduler = createScheduler(clock);
    let ran = false;
    scheduler.at(1_000, () => (ran = true));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(ran).toBe(false);
    clock.set(1_000);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(ran).toBe(true);
  });

  it('drops cancelled tasks in bulk and still runs the rest in order, cancelling after a drop included', () => {
    const clock = createClock({ frozenAt: 0 });
    const scheduler = createScheduler(clock);
    const ran: number[] = [];
    const tasks = Array.from({ length: 400 }, (_, i) =>
      scheduler.at(1_000 - i, () => ran.push(i), { manualOnly: true }),
    );
    tasks.forEach((task, i) => {
      if (i % 4 !== 0) task.cancel();
    });
    tasks[0].cancel();
    tasks[0].cancel();
    expect(scheduler.pending()).toBe(99);
    scheduler.advance(1_000);
    expect(ran).toEqual(Array.from({ length: 99 }, (_, k) => 396 - 4 * k));
  });
});
