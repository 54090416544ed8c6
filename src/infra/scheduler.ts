// Timers on the emulator clock: real timers fire due work, and advance() runs it in order without waiting.
import type { Clock } from './clock.js';
import { type StoredTasks, storedStream, type Watermark } from './stored-tasks.js';
import { unref } from './unref.js';

export type { StoredTask, StoredTaskQuery, StoredTasks } from './stored-tasks.js';

export interface ScheduledTask {
  cancel(): void;
}

export interface ScheduleOptions {
  /** Fire only when the clock is advanced, never on real time (the `manual` timing profile). */
  manualOnly?: boolean;
  /** Passed to `run` when the task fires: one shared function can serve many tasks, with no closure per task. */
  key?: string;
  /**
   * Tasks due at one instant run by rank, then in the order they were scheduled (default 0). A caller whose tasks
   * are also kept in a store gives them the rank the store orders them by, so both kinds interleave the same way.
   */
  rank?: number;
}

export interface Scheduler {
  at(dueAt: number, run: (key: string) => void, options?: ScheduleOptions): ScheduledTask;
  /**
   * From now on also runs the tasks `stored` keeps (read a page at a time, never all at once), merged with the
   * heap's in (due time, rank) order. Undefined detaches it.
   */
  useStored(stored: StoredTasks | undefined): void;
  /** Move the clock forward by ms, running every task that falls due, in time order. */
  advance(ms: number): void;
  /** The earliest pending due time, or undefined when nothing is scheduled. */
  nextDueAt(): number | undefined;
  /** Tasks held in the heap (the stored ones are not counted). */
  pending(): number;
  /** Drop every task, forget the stored ones and stop the real timer (reset and close). */
  clear(): void;
}

/** Counts the cancelled tasks still in the queue, so they are dropped in bulk before they outnumber the live ones. */
interface CancelCounter {
  cancelled(): void;
}

/** One task; it is its own handle (no closure per task: a task in the heap costs this object only). */
class Entry implements ScheduledTask {
  cancelled = false;
  /** False once run or dropped: cancelling it then changes nothing. */
  queued = true;

  constructor(
    readonly dueAt: number,
    readonly rank: number,
    readonly seq: number,
    readonly run: (key: string) => void,
    readonly key: string,
    readonly manualOnly: boolean,
    private readonly counter: CancelCounter,
  ) {}

  cancel() {
    if (this.cancelled || !this.queued) return;
    this.cancelled = true;
    this.counter.cancelled();
  }
}

/** Below this many cancelled tasks the queue is not worth a pass of its own. */
const COMPACT_AFTER = 64;

const before = (a: { dueAt: number; rank: number }, b: { dueAt: number; rank: number }) =>
  a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.rank < b.rank);

export function createScheduler(clock: Clock): Scheduler {
  const queue: Entry[] = [];
  let seq = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let armedAt: number | undefined;
  // While due work runs the clock jumps task by task; the timer is armed once afterwards, not at every jump.
  let running = false;
  let stored: StoredTasks | undefined;
  /** Per kind (real-time, manual-only): the last stored task run or skipped; the next read starts after it. */
  const watermarks: Record<'real' | 'manual', Watermark | undefined> = { real: undefined, manual: undefined };

  let cancelledInQueue = 0;
  // A committed generation's first move is cancelled in the heap (the store keeps it): without this a long run of
  // manual-timing submissions would keep every cancelled task until the clock reached it.
  const counter: CancelCounter = {
    cancelled() {
      cancelledInQueue += 1;
      if (cancelledInQueue < COMPACT_AFTER || cancelledInQueue * 2 < queue.length || running) return;
      let kept = 0;
      for (const entry of queue) {
        if (entry.cancelled) entry.queued = false;
        else queue[kept++] = entry;
      }
      queue.length = kept;
      cancelledInQueue = 0;
    },
  };

  const take = (index: number) => {
    const [entry] = queue.splice(index, 1);
    entry.queued = false;
    if (entry.cancelled) cancelledInQueue -= 1;
    return entry;
  };

  const insert = (entry: Entry) => {
    let lo = 0;
    let hi = queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const m = queue[mid];
      if (before(m, entry) || (m.dueAt === entry.dueAt && m.rank === entry.rank && m.seq < entry.seq)) lo = mid + 1;
      else hi = mid;
    }
    queue.splice(lo, 0, entry);
  };

  const heapHead = (includeManual: boolean) => queue.findIndex((e) => !e.cancelled && (includeManual || !e.manualOnly));

  /** The stored tasks of the kinds asked for, each read after its watermark. */
  const streams = (includeManual: boolean, upTo: number) => {
    if (!stored) return [];
    const kinds: ('real' | 'manual')[] = includeManual ? ['real', 'manual'] : ['real'];
    const source = stored;
    return kinds.map((kind) =>
      storedStream(source, kind === 'manual', upTo, watermarks[kind], (mark) => {
        watermarks[kind] = mark;
      }),
    );
  };

  const drain = (limit: number, includeManual: boolean) => {
    const fromStore = streams(includeManual, limit);
    for (;;) {
      const index = heapHead(includeManual);
      const heap = index < 0 ? undefined : queue[index];
      let first: (typeof fromStore)[number] | undefined;
      for (const stream of fromStore) {
        const head = stream.peek();
        if (head && (!first || before(head, first.peek() as Watermark))) first = stream;
      }
      const storedHead = first?.peek();
      if (storedHead && (!heap || before(storedHead, heap)) && storedHead.dueAt <= limit) {
        const task = (first as (typeof fromStore)[number]).take();
        if (includeManual && task.dueAt > clock.now()) clock.set(task.dueAt);
        (stored as StoredTasks).run(task.key);
        continue;
      }
      if (!heap || heap.dueAt > limit) break;
      take(index);
      if (includeManual && heap.dueAt > clock.now()) clock.set(heap.dueAt);
      heap.run(heap.key);
    }
    while (queue.length && queue[0].cancelled) take(0);
  };

  const runDue = (limit: number, includeManual: boolean) => {
    running = true;
    try {
      drain(limit, includeManual);
    } finally {
      running = false;
    }
  };

  const earliest = (includeManual: boolean): number | undefined => {
    const index = heapHead(includeManual);
    let next = index < 0 ? undefined : queue[index].dueAt;
    for (const stream of streams(includeManual, Number.MAX_SAFE_INTEGER)) {
      const head = stream.peek();
      if (head && (next === undefined || head.dueAt < next)) next = head.dueAt;
    }
    return next;
  };

  const arm = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    armedAt = undefined;
    const next = earliest(false);
    // A frozen clock never reaches future work on its own, but work already due (instant timing) still runs; nor does
    // one held at its latest reading reach work due after it, and a timer re-armed for that would fire without end.
    if (next === undefined || next > clock.latest || (clock.frozen && next > clock.now())) return;
    const delay = Math.max(0, Math.min(next - clock.now(), 2 ** 31 - 1));
    armedAt = next;
    timer = setTimeout(() => {
      timer = undefined;
      armedAt = undefined;
      runDue(clock.now(), false);
      arm();
    }, delay);
    unref(timer);
  };

  // A frozen, unfrozen or moved clock changes when the next task is due in real time. A clock set back before a
  // watermark reads the store from the start again: what was skipped there may be due again.
  clock.onChange(() => {
    const now = clock.now();
    for (const kind of ['real', 'manual'] as const)
      if ((watermarks[kind]?.dueAt ?? -Infinity) > now) watermarks[kind] = undefined;
    if (!running) arm();
  });

  return {
    at(dueAt, run, options = {}) {
      const entry = new Entry(
        dueAt,
        options.rank ?? 0,
        seq++,
        run,
        options.key ?? '',
        options.manualOnly ?? false,
        counter,
      );
      insert(entry);
      // The armed timer already covers a task due no earlier than it.
      if (!entry.manualOnly && (armedAt === undefined || dueAt < armedAt)) arm();
      return entry;
    },
    useStored(tasks) {
      stored = tasks;
      watermarks.real = undefined;
      watermarks.manual = undefined;
      arm();
    },
    advance(ms) {
      // Time stops at the clock's latest reading: work due after it never falls due, so it is not run early there.
      const target = Math.min(clock.now() + Math.max(0, ms), clock.latest);
      runDue(target, true);
      running = true;
      if (clock.now() < target) clock.set(target);
      running = false;
      arm();
    },
    nextDueAt: () => earliest(true),
    pending: () => queue.filter((e) => !e.cancelled).length,
    clear() {
      for (const entry of queue) entry.queued = false;
      queue.length = 0;
      cancelledInQueue = 0;
      stored = undefined;
      if (timer) clearTimeout(timer);
      timer = undefined;
      armedAt = undefined;
    },
  };
}
