// Each generation's waiting move on a real scheduler and emulator clock: when a first move falls due, the order of
// moves due at one instant, cancelling, and the store of record taking over the first moves of committed generations.
import { describe, expect, it } from 'vitest';
import type { Generation, GenerationStatus } from '../../../src/domain/generation.js';
import { firstMoveDueAt, MoveTimers, type MoveTimerDeps, type WaitingSource } from '../../../src/domain/move-timers.js';
import { createClock } from '../../../src/infra/clock.js';
import { createScheduler, type StoredTask } from '../../../src/infra/scheduler.js';

const generation = (seq: number, status: GenerationStatus = 'pending'): Generation =>
  ({
    seq,
    id: `gen_${seq}`,
    status,
    createdAt: 0,
    plan: { pendingMs: 1000, runningMs: 5000, manualOnly: true },
  }) as Generation;

/** Timers on a frozen clock at 0 (nothing fires until advanced), with the order their moves ran in. */
function timersWith(deps: Omit<MoveTimerDeps, 'scheduler'> = {}) {
  const scheduler = createScheduler(createClock({ frozenAt: 0 }));
  const timers = new MoveTimers({ scheduler, ...deps });
  const ran: string[] = [];
  const due = (id: string) => {
    timers.fired(id);
    ran.push(id);
  };
  return { scheduler, timers, ran, due };
}

describe('firstMoveDueAt', () => {
  const plan = { pendingMs: 1000, runningMs: 5000, manualOnly: false };
  const fail = { code: 'x', message: 'y', afterMs: 300, refund: { kind: 'full' as const } };

  it('is the start, pendingMs after creation, for a generation that does not fail while pending', () => {
    expect(firstMoveDueAt({ createdAt: 10_000, plan })).toBe(11_000);
    expect(firstMoveDueAt({ createdAt: 10_000, plan: { ...plan, fail: { ...fail, at: 'running' } } })).toBe(11_000);
  });

  it('is the failure, afterMs after creation, for a generation set to fail while pending', () => {
    expect(firstMoveDueAt({ createdAt: 10_000, plan: { ...plan, fail: { ...fail, at: 'pending' } } })).toBe(10_300);
  });
});

describe('MoveTimers', () => {
  it('runs a move with its generation’s id when the clock reaches it, not before', () => {
    const { scheduler, timers, ran, due } = timersWith();
    timers.schedule(generation(1), 500, due);
    scheduler.advance(499);
    expect(ran).toEqual([]);
    expect(timers.ids()).toEqual(['gen_1']);
    scheduler.advance(1);
    expect(ran).toEqual(['gen_1']);
    expect(timers.ids()).toEqual([]);
  });

  it('never runs a cancelled move, and cancelling a generation with no move waiting does nothing', () => {
    const { scheduler, timers, ran, due } = timersWith();
    timers.schedule(generation(1), 500, due);
    timers.schedule(generation(2), 500, due);
    timers.cancel('gen_1');
    timers.cancel('gen_9');
    expect(timers.ids()).toEqual(['gen_2']);
    scheduler.advance(1000);
    expect(ran).toEqual(['gen_2']);
  });

  it('runs moves due at one instant by rank: first moves by seq, a later move after every generation so far', () => {
    let lastSeq = 2;
    const { scheduler, timers, ran, due } = timersWith({ lastSeq: () => lastSeq });
    timers.schedule(generation(2), 500, due, 2);
    timers.schedule(generation(1, 'running'), 500, due);
    lastSeq = 3;
    timers.schedule(generation(3), 500, due, 3);
    timers.schedule(generation(0), 500, due, 0);
    scheduler.advance(500);
    expect(ran).toEqual(['gen_0', 'gen_2', 'gen_1', 'gen_3']);
  });

  it('runs moves due at one instant in the order scheduled when it has no seq to rank by', () => {
    const { scheduler, timers, ran, due } = timersWith();
    timers.schedule(generation(5), 500, due, 5);
    timers.schedule(generation(1), 500, due, 1);
    scheduler.advance(500);
    expect(ran).toEqual(['gen_5', 'gen_1']);
  });
});

describe('MoveTimers with a store of record', () => {
  /** A store of record that keeps first moves (manual timing) due at 500 for the listed generations. */
  const storeOf = (ids: string[]): WaitingSource => ({
    waiting: (query) =>
      query.after || !query.manualOnly
        ? []
        : ids.map((key, rank): StoredTask => ({ key, dueAt: 500, rank })).filter((t) => t.dueAt <= query.upTo),
  });

  it('hands the committed pending generations’ first moves to the store, and keeps the uncommitted ones', () => {
    const held = new Map([1, 2, 3].map((seq) => [`gen_${seq}`, generation(seq)]));
    const { scheduler, timers, ran, due } = timersWith({ resident: (id) => held.get(id) });
    for (const g of held.values()) timers.schedule(g, 500, due);
    const stored: string[] = [];
    timers.useStore(storeOf(['gen_1', 'gen_2']), new Set(['gen_3']), (id) => stored.push(id));
    expect(timers.ids()).toEqual(['gen_3']);
    scheduler.advance(500);
    expect(stored).toEqual(['gen_1', 'gen_2']);
    expect(ran).toEqual(['gen_3']);
  });

  it('keeps in the heap the move of a generation the heap holds as running, even when committed', () => {
    const running = generation(1, 'running');
    const { timers, due } = timersWith({ resident: (id) => (id === running.id ? running : undefined) });
    timers.schedule(running, 500, due);
    timers.schedule(generation(2), 500, due);
    timers.useStore(storeOf([]), new Set(), () => {});
    expect(timers.ids()).toEqual(['gen_1']);
  });

  it('skips a stored first move whose generation the heap has already moved on', () => {
    const moved = generation(1, 'running');
    const { scheduler, timers } = timersWith({ resident: (id) => (id === moved.id ? moved : undefined) });
    const stored: string[] = [];
    timers.useStore(storeOf(['gen_1', 'gen_2']), new Set(), (id) => stored.push(id));
    scheduler.advance(500);
    expect(stored).toEqual(['gen_2']);
  });

  it('lets the heap keep every move when it cannot tell what it holds (no resident lookup)', () => {
    const { scheduler, timers, ran, due } = timersWith();
    timers.schedule(generation(1), 500, due);
    const stored: string[] = [];
    timers.useStore(storeOf(['gen_1']), new Set(), (id) => stored.push(id));
    timers.committed([generation(1)]);
    expect(timers.ids()).toEqual(['gen_1']);
    scheduler.advance(500);
    expect(stored).toEqual([]);
    expect(ran).toEqual(['gen_1']);
  });

  it('drops a pending generation’s move from the heap once committed, and keeps a running one’s', () => {
    const held = new Map<string, Generation>();
    const { timers, due } = timersWith({ resident: (id) => held.get(id) });
    timers.useStore(storeOf([]), new Set(), () => {});
    const pending = generation(1);
    const running = generation(2, 'running');
    for (const g of [pending, running]) {
      held.set(g.id, g);
      timers.schedule(g, 500, due);
    }
    timers.committed([pending, running]);
    expect(timers.ids()).toEqual(['gen_2']);
  });

  it('keeps every move in the heap on commit until the store of record is in use', () => {
    const { timers, due } = timersWith({ resident: () => undefined });
    timers.schedule(generation(1), 500, due);
    timers.committed([generation(1)]);
    expect(timers.ids()).toEqual(['gen_1']);
  });
});
