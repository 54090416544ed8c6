// Tasks the scheduler reads from a store a page at a time, in (due time, rank) order, instead of holding one object each.

/** A task kept in a store: what to pass to `run`, when it is due and its rank among tasks due at that instant. */
export interface StoredTask {
  key: string;
  dueAt: number;
  rank: number;
}

export interface StoredTaskQuery {
  /** The manual-only tasks (fired by advance only), or the others. */
  manualOnly: boolean;
  /** Only tasks strictly after this one in (dueAt, rank) order. */
  after?: { dueAt: number; rank: number };
  /** Inclusive: nothing due later. */
  upTo: number;
  limit: number;
}

export interface StoredTasks {
  /** Tasks in (dueAt, rank) order. */
  due(query: StoredTaskQuery): StoredTask[];
  /**
   * False when the store's row is behind the caller's state (the work moved on and is not committed yet): the task
   * is skipped, and never comes back, since work does not move back.
   */
  live(key: string): boolean;
  run(key: string): void;
}

export type Watermark = Pick<StoredTask, 'dueAt' | 'rank'>;

/**
 * Rows per read: the first read is small (a look at the next due task, or an advance step that runs one task, reads
 * only that far); later ones are large enough that a long advance reads rarely, small enough to cost microseconds.
 */
const FIRST_PAGE = 4;
const PAGE = 64;

/**
 * The live tasks of one kind after `mark`, up to `upTo`, for one synchronous pass (nothing commits meanwhile, so a
 * page read stays true until the pass ends). Each task run or skipped moves the mark through `setMark`.
 */
export function storedStream(
  stored: StoredTasks,
  manualOnly: boolean,
  upTo: number,
  mark: Watermark | undefined,
  setMark: (mark: Watermark) => void,
) {
  let page: StoredTask[] = [];
  let at = 0;
  let exhausted = false;
  let last = mark;
  let limit = FIRST_PAGE;
  const peek = (): StoredTask | undefined => {
    for (;;) {
      if (at === page.length) {
        if (exhausted) return undefined;
        page = stored.due({ manualOnly, after: last, upTo, limit });
        at = 0;
        exhausted = page.length < limit;
        limit = PAGE;
        if (page.length === 0) return undefined;
      }
      const task = page[at];
      if (stored.live(task.key)) return task;
      // Behind the caller's state: past it for good.
      at += 1;
      last = { dueAt: task.dueAt, rank: task.rank };
      setMark(last);
    }
  };
  return {
    peek,
    /** The task peek() returned, now taken: the mark moves past it before it runs. */
    take(): StoredTask {
      const task = peek() as StoredTask;
      at += 1;
      last = { dueAt: task.dueAt, rank: task.rank };
      setMark(last);
      return task;
    },
  };
}
