// The emulator clock stops at its latest reading: running, frozen, advanced or set, and the scheduler arms no timer past it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClock } from '../../../src/infra/clock.js';
import { createScheduler } from '../../../src/infra/scheduler.js';

const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

describe('the emulator clock at its latest reading', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('holds a running clock there as real time goes on', () => {
    let real = 1_000;
    const clock = createClock({ realNow: () => real, latest: LATEST });
    clock.set(LATEST - 500);
    real += 400;
    expect(clock.now()).toBe(LATEST - 100);
    real += 600;
    expect(clock.now()).toBe(LATEST);
    real += 86_400_000;
    expect(clock.now()).toBe(LATEST);
    clock.freeze();
    expect(clock.now()).toBe(LATEST);
    // Set back, it runs again from there.
    clock.unfreeze();
    clock.set(LATEST - 10);
    real += 5;
    expect(clock.now()).toBe(LATEST - 5);
  });

  it('holds a frozen clock there however far it is advanced or set, and unfreezing from there does not pass it', () => {
    let real = 0;
    const clock = createClock({ frozenAt: LATEST - 1, realNow: () => real, latest: LATEST });
    clock.advanceBy(10);
    expect(clock.now()).toBe(LATEST);
    clock.set(LATEST + 1_000);
    expect(clock.now()).toBe(LATEST);
    clock.unfreeze();
    real += 1_000;
    expect(clock.now()).toBe(LATEST);
  });

  it('runs work due up to it, keeps work due after it, and arms no timer for that work', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let real = 0;
    const clock = createClock({ realNow: () => real, latest: LATEST });
    clock.set(LATEST - 1_000);
    const scheduler = createScheduler(clock);
    const ran: string[] = [];
    scheduler.at(LATEST, () => ran.push('last'));
    scheduler.at(LATEST + 5, () => ran.push('after'));
    expect(vi.getTimerCount()).toBe(1);
    real += 1_000;
    vi.runOnlyPendingTimers();
    expect(ran).toEqual(['last']);
    // A timer re-armed for work the held clock never reaches would fire every few milliseconds without end.
    expect(vi.getTimerCount()).toBe(0);
    scheduler.advance(60_000);
    expect([ran, clock.now(), scheduler.nextDueAt()]).toEqual([['last'], LATEST, LATEST + 5]);
    scheduler.clear();
  });
});
