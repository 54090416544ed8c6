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

/**
 * A class, not an object of closures: every world (each sandbox) holds one, most of them idle, and its methods on a
 * prototype cost a world nothing. It is its own counter of cancelled tasks.
 */
class ClockScheduler implements Scheduler, CancelCounter {
  private readonly queue: Entry[] = [];
  private seq = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private armedAt: number | undefined;
  // While due work runs the clock jumps task by task; the timer is armed once afterwards, not at every jump.
  private running = false;
  private stored: StoredTasks | undefined;
  /** Per kind (real-time, manual-only): the last stored task run or skipped; the next read starts after it. */
  private readonly watermarks: Record<'real' | 'manual', Watermark | undefined> = {
    real: undefined,
    manual: undefined,
  };
  private cancelledInQueue = 0;

  constructor(private readonly clock: Clock) {
    // A frozen, unfrozen or moved clock changes when the next task is due in real time. A clock set back before a
    // watermark reads the store from the start again: what was skipped there may be due again.
    clock.onChange(() => {
      const now = clock.now();
      for (const kind of ['real', 'manual'] as const)
        if ((this.watermarks[kind]?.dueAt ?? -Infinity) > now) this.watermarks[kind] = undefined;
      if (!this.running) this.arm();
    });
  }

  // A committed generation's first move is cancelled in the heap (the store keeps it): without this a long run of
  // manual-timing submissions would keep every cancelled task until the clock reached it.
  cancelled() {
    const { queue } = this;
    this.cancelledInQueue += 1;
    if (this.cancelledInQueue < COMPACT_AFTER || this.cancelledInQueue * 2 < queue.length || this.running) return;
    let kept = 0;
    for (const entry of queue) {
      if (entry.cancelled) entry.queued = false;
      else queue[kept++] = entry;
    }
    queue.length = kept;
    this.cancelledInQueue = 0;
  }

  at(dueAt: number, run: (key: string) => void, options: ScheduleOptions = {}): ScheduledTask {
    const entry = new Entry(
      dueAt,
      options.rank ?? 0,
      this.seq++,
      run,
      options.key ?? '',
      options.manualOnly ?? false,
      this,
    );
    this.insert(entry);
    // The armed timer already covers a task due no earlier than it.
    if (!entry.manualOnly && (this.armedAt === undefined || dueAt < this.armedAt)) this.arm();
    return entry;
  }

  useStored(tasks: StoredTasks | undefined) {
    this.stored = tasks;
    this.watermarks.real = undefined;
    this.watermarks.manual = undefined;
    this.arm();
  }

  advance(ms: number) {
    const { clock } = this;
    // Time stops at the clock's latest reading: work due after it never falls due, so it is not run early there.
    const target = Math.min(clock.now() + Math.max(0, ms), clock.latest);
    this.runDue(target, true);
    this.running = true;
    if (clock.now() < target) clock.set(target);
    this.running = false;
    this.arm();
  }

  nextDueAt() {
    return this.earliest(true);
  }

  pending() {
    return this.queue.filter((e) => !e.cancelled).length;
  }

  clear() {
    for (const entry of this.queue) entry.queued = false;
    this.queue.length = 0;
    this.cancelledInQueue = 0;
    this.stored = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedAt = undefined;
  }

  private take(index: number) {
    const [entry] = this.queue.splice(index, 1);
    entry.queued = false;
    if (entry.cancelled) this.cancelledInQueue -= 1;
    return entry;
  }

  private insert(entry: Entry) {
    const { queue } = this;
    let lo = 0;
    let hi = queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const m = queue[mid];
      if (before(m, entry) || (m.dueAt === entry.dueAt && m.rank === entry.rank && m.seq < entry.seq)) lo = mid + 1;
      else hi = mid;
    }
    queue.splice(lo, 0, entry);
  }

  private heapHead(includeManual: boolean) {
    return this.queue.findIndex((e) => !e.cancelled && (includeManual || !e.manualOnly));
  }

  /** The stored tasks of the kinds asked for, each read after its watermark. */
  private streams(includeManual: boolean, upTo: number) {
    const source = this.stored;
    if (!source) return [];
    const kinds: ('real' | 'manual')[] = includeManual ? ['real', 'manual'] : ['real'];
    return kinds.map((kind) =>
      storedStream(source, kind === 'manual', upTo, this.watermarks[kind], (mark) => {
        this.watermarks[kind] = mark;
      }),
    );
  }

  private drain(limit: number, includeManual: boolean) {
    const { queue, clock } = this;
    const fromStore = this.streams(includeManual, limit);
    for (;;) {
      const index = this.heapHead(includeManual);
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
        (this.stored as StoredTasks).run(task.key);
        continue;
      }
      if (!heap || heap.dueAt > limit) break;
      this.take(index);
      if (includeManual && heap.dueAt > clock.now()) clock.set(heap.dueAt);
      heap.run(heap.key);
    }
    while (queue.length && queue[0].cancelled) this.take(0);
  }

  private runDue(limit: number, includeManual: boolean) {
    this.running = true;
    try {
      this.drain(limit, includeManual);
    } finally {
      this.running = false;
    }
  }

  private earliest(includeManual: boolean): number | undefined {
    const index = this.heapHead(includeManual);
    let next = index < 0 ? undefined : this.queue[index].dueAt;
    for (const stream of this.streams(includeManual, Number.MAX_SAFE_INTEGER)) {
      const head = stream.peek();
      if (head && (next === undefined || head.dueAt < next)) next = head.dueAt;
    }
    return next;
  }

  private arm() {
    const { clock } = this;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedAt = undefined;
    const next = this.earliest(false);
    // A frozen clock never reaches future work on its own, but work already due (instant timing) still runs; nor does
    // one held at its latest reading reach work due after it, and a timer re-armed for that would fire without end.
    if (next === undefined || next > clock.latest || (clock.frozen && next > clock.now())) return;
    const delay = Math.max(0, Math.min(next - clock.now(), 2 ** 31 - 1));
    this.armedAt = next;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.armedAt = undefined;
      this.runDue(clock.now(), false);
      this.arm();
    }, delay);
    unref(this.timer);
  }
}

export const createScheduler = (clock: Clock): Scheduler => new ClockScheduler(clock);
