// Timers on the emulator clock: real timers fire due work, and advance() runs it in order without waiting.
import type { Clock } from './clock.js';

export interface ScheduledTask {
  cancel(): void;
}

export interface ScheduleOptions {
  /** Fire only when the clock is advanced, never on real time (the `manual` timing profile). */
  manualOnly?: boolean;
  /** Passed to `run` when the task fires: one shared function can serve many tasks, with no closure per task. */
  key?: string;
}

export interface Scheduler {
  at(dueAt: number, run: (key: string) => void, options?: ScheduleOptions): ScheduledTask;
  /** Move the clock forward by ms, running every task that falls due, in time order. */
  advance(ms: number): void;
  /** The earliest pending due time, or undefined when nothing is scheduled. */
  nextDueAt(): number | undefined;
  pending(): number;
  /** Drop every task and stop the real timer (reset and close). */
  clear(): void;
}

/** One task; it is its own handle (no closure per task: a waiting generation costs the heap this object only). */
class Entry implements ScheduledTask {
  cancelled = false;

  constructor(
    readonly dueAt: number,
    readonly seq: number,
    readonly run: (key: string) => void,
    readonly key: string,
    readonly manualOnly: boolean,
  ) {}

  cancel() {
    this.cancelled = true;
  }
}

export function createScheduler(clock: Clock): Scheduler {
  const queue: Entry[] = [];
  let seq = 0;
  let timer: NodeJS.Timeout | undefined;
  // While due work runs the clock jumps task by task; the timer is armed once afterwards, not at every jump.
  let running = false;

  const insert = (entry: Entry) => {
    let lo = 0;
    let hi = queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const m = queue[mid];
      if (m.dueAt < entry.dueAt || (m.dueAt === entry.dueAt && m.seq < entry.seq)) lo = mid + 1;
      else hi = mid;
    }
    queue.splice(lo, 0, entry);
  };

  const runDue = (limit: number, includeManual: boolean) => {
    running = true;
    try {
      drain(limit, includeManual);
    } finally {
      running = false;
    }
  };

  const drain = (limit: number, includeManual: boolean) => {
    for (;;) {
      const index = queue.findIndex((e) => !e.cancelled && (includeManual || !e.manualOnly));
      if (index < 0 || queue[index].dueAt > limit) break;
      const [entry] = queue.splice(index, 1);
      if (includeManual && entry.dueAt > clock.now()) clock.set(entry.dueAt);
      entry.run(entry.key);
    }
    while (queue.length && queue[0].cancelled) queue.shift();
  };

  const arm = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const next = queue.find((e) => !e.cancelled && !e.manualOnly);
    // A frozen clock never reaches future work on its own, but work already due (instant timing) still runs.
    if (!next || (clock.frozen && next.dueAt > clock.now())) return;
    const delay = Math.max(0, Math.min(next.dueAt - clock.now(), 2 ** 31 - 1));
    timer = setTimeout(() => {
      timer = undefined;
      runDue(clock.now(), false);
      arm();
    }, delay);
    timer.unref();
  };

  // A frozen, unfrozen or moved clock changes when the next task is due in real time.
  clock.onChange(() => {
    if (!running) arm();
  });

  return {
    at(dueAt, run, options = {}) {
      const entry = new Entry(dueAt, seq++, run, options.key ?? '', options.manualOnly ?? false);
      insert(entry);
      if (!entry.manualOnly) arm();
      return entry;
    },
    advance(ms) {
      const target = clock.now() + Math.max(0, ms);
      runDue(target, true);
      running = true;
      if (clock.now() < target) clock.set(target);
      running = false;
      arm();
    },
    nextDueAt: () => queue.find((e) => !e.cancelled)?.dueAt,
    pending: () => queue.filter((e) => !e.cancelled).length,
    clear() {
      queue.length = 0;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
