// The generation store's contract with the store of record (the source it reads, the listener it tells) and the list filter.
import type { MediaKind } from './catalogue-schema.js';
import type { Generation, GenerationStatus } from './generation.js';
import type { WaitingSource } from './move-timers.js';

export interface ListFilter {
  kind?: MediaKind;
  status?: GenerationStatus;
  modelSlug?: string;
  /** Inclusive lower bound on created_at (ms). */
  from?: number;
  /** Exclusive upper bound on created_at (ms). */
  to?: number;
}

export interface Page {
  items: Generation[];
  /** The seq the next page starts below, when there is one (the cursor names it). */
  nextBefore: number | null;
}

/** Where generations live once committed: the store of record, read on demand (SQL behind it, in infra). */
export interface GenerationSource extends WaitingSource {
  get(id: string): Generation | undefined;
  /**
   * Newest first: seq below `before`, matching the filter (and account when given), at most `limit`. `held` gives
   * the heap's copy of a generation, when it has one: the source then reads only the others' documents.
   */
  query(
    query: ListFilter & { accountId?: string; text?: string; before: number; limit: number; offset?: number },
    held?: (id: string) => Generation | undefined,
  ): Generation[];
  count(): number;
  /** How many generations match, by status (`text` is already folded, see foldText). */
  countByStatus(filter: { modelSlug?: string; text?: string }): Partial<Record<string, number>>;
}

/** Told when the store of record takes generations over (the lifecycle hands it their timers). */
export interface CommitListener {
  useStore(source: WaitingSource, uncommitted: ReadonlySet<string>): void;
  committed(generations: Iterable<Generation>): void;
}

/** The list filter the source applies in SQL, applied to a generation in the heap (before a source is attached). */
export function matchesFilter(g: Generation, f: ListFilter): boolean {
  return (
    (!f.kind || g.kind === f.kind) &&
    (!f.status || g.status === f.status) &&
    (!f.modelSlug || g.modelSlug === f.modelSlug) &&
    (f.from === undefined || g.createdAt >= f.from) &&
    (f.to === undefined || g.createdAt < f.to)
  );
}
