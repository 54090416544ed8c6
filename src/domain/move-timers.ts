// Each generation's one waiting move on the scheduler: in the heap until the store of record holds it, then in its index.
import type { ScheduledTask, Scheduler, StoredTask, StoredTaskQuery } from '../infra/scheduler.js';
import type { Generation } from './generation.js';

/** Where a store of record keeps the waiting generations' first moves (its due-time index). */
export interface WaitingSource {
  waiting(query: StoredTaskQuery): StoredTask[];
}

/** When a pending generation's first move is due: its start, or its failure while pending. */
export function firstMoveDueAt(g: Pick<Generation, 'createdAt' | 'plan'>): number {
  return g.createdAt + (g.plan.fail?.at === 'pending' ? g.plan.fail.afterMs : g.plan.pendingMs);
}

export interface MoveTimerDeps {
  scheduler: Scheduler;
  /**
   * The copy the heap holds, without reading the store: a stored first move whose generation the heap has already
   * moved on is stale. Needed for the store of record to keep the waiting generations' first moves.
   */
  resident?: (id: string) => Generation | undefined;
  /**
   * The highest generation seq handed out. Given, moves due at one instant run in the order they were scheduled
   * across heap and store: a first move ranks by its generation's seq, a later move just after the newest seq.
   */
  lastSeq?: () => number;
}

/** A generation has at most one move waiting; the task holds its id, and the record is looked up when it is due. */
export class MoveTimers {
  private readonly tasks = new Map<string, ScheduledTask>();
  /** Set by useStore(): committed pending generations' first moves are the store's to keep. */
  private storeKeeps = false;

  constructor(private readonly deps: MoveTimerDeps) {}

  /** `rank`: a first move's (its generation's seq); a later move ranks after every generation accepted so far. */
  schedule(g: Generation, dueAt: number, due: (id: string) => void, rank?: number) {
    const { lastSeq } = this.deps;
    const options = { manualOnly: g.plan.manualOnly, key: g.id };
    // Ranks only with lastSeq: without it every task ranks 0 and ties run in the order scheduled.
    const ranked = lastSeq ? { ...options, rank: rank ?? lastSeq() + 0.5 } : options;
    this.tasks.set(g.id, this.deps.scheduler.at(dueAt, due, ranked));
  }

  /** The task of `id` fired. */
  fired(id: string) {
    this.tasks.delete(id);
  }

  cancel(id: string) {
    this.tasks.get(id)?.cancel();
    this.tasks.delete(id);
  }

  /**
   * From now on the store of record keeps the first move of every generation it holds as pending (`firstMove` runs
   * it): the heap lets go of those. `uncommitted` are the ones it does not hold yet: their task stays until then.
   */
  useStore(source: WaitingSource, uncommitted: ReadonlySet<string>, firstMove: (id: string) => void) {
    const { resident } = this.deps;
    if (!resident) return;
    // A generation the heap holds is waiting only if still pending there; one the heap does not hold, as stored
    // (a running one is always in the heap).
    const waiting = (id: string) => (resident(id)?.status ?? 'pending') === 'pending';
    this.deps.scheduler.useStored({ due: (query) => source.waiting(query), live: waiting, run: firstMove });
    this.storeKeeps = true;
    for (const id of [...this.tasks.keys()]) if (!uncommitted.has(id) && waiting(id)) this.cancel(id);
  }

  /** The store of record now holds these generations: a pending one's first move is read from it from now on. */
  committed(generations: Iterable<Generation>) {
    if (!this.storeKeeps) return;
    for (const g of generations) if (g.status === 'pending') this.cancel(g.id);
  }

  /** The generations with a move in the heap (a copy: the caller may cancel them as it goes). */
  ids(): string[] {
    return [...this.tasks.keys()];
  }
}
