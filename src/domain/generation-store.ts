// Generations by id and per account in creation order, with newest-first paging by seq, stable under inserts.
import { allStatuses, type Census, type CensusFilter, censusOf, foldText, totalOf } from './generation-census.js';
import { type Generation, isFinal } from './generation.js';
import {
  type CommitListener,
  type GenerationSource,
  type ListFilter,
  matchesFilter,
  type Page,
} from './generation-source.js';
import { RecentCache } from './recent-cache.js';

/** Committed, final generations the heap keeps for repeated reads; everything else is read from the source again. */
const RECENT_CAPACITY = 1000;
/** Rows per read when walking every generation (console, control list, export). */
const SCAN_CHUNK = 500;
/** List pages the heap remembers until the next change (at most 32 x 101 generations): a polled list costs no query. */
const PAGE_CAPACITY = 32;

type PageQuery = ListFilter & { accountId: string; before: number; limit: number };

const pageKey = (q: PageQuery) =>
  JSON.stringify([q.accountId, q.kind, q.status, q.modelSlug, q.from, q.to, q.before, q.limit]);

/**
 * Until a source is attached (a context the store of record has not written yet), every generation stays in the heap.
 * Once attached, the heap holds only the generations in flight (the clock moves them), the ones changed since the
 * last commit and a bounded cache of recent ones: the rest is read back from the source when asked for.
 */
export class GenerationStore {
  private source?: GenerationSource;
  /** Without a source: every generation, by id, in creation order. */
  private readonly held = new Map<string, Generation>();
  private readonly inFlight = new Map<string, Generation>();
  /** Added or touched since the store of record last committed them: what its next transaction writes. */
  private readonly changed = new Map<string, Generation>();
  private readonly recent = new RecentCache<string, Generation>(RECENT_CAPACITY);
  /**
   * Pages read from the source, by query. Any add or change may move a generation into or out of a page
   * (a new one, a status filter), so each empties it; columns a page selects on otherwise never change.
   */
  private readonly pages = new RecentCache<string, Generation[]>(PAGE_CAPACITY);
  private total = 0;
  private seq = 0;
  private listener?: CommitListener;

  /** One listener: told of the source when attached, and of every commit's generations. */
  listen(listener: CommitListener) {
    this.listener = listener;
  }

  nextSeq(): number {
    return ++this.seq;
  }

  /** The next seq is past `seq` (an imported or stored generation's). */
  skipPastSeq(seq: number) {
    this.seq = Math.max(this.seq, seq);
  }

  /**
   * From now on committed generations live in `source`, which holds everything added so far; `keepChanged` when the
   * changes made while filling the store (a start's in-flight generations put back to pending) are still to be written.
   */
  attach(source: GenerationSource, { keepChanged = false } = {}) {
    this.source = source;
    this.held.clear();
    if (!keepChanged) this.changed.clear();
    this.recent.clear();
    this.pages.clear();
    this.total = source.count();
    this.listener?.useStore(source, new Set(this.changed.keys()));
  }

  add(generation: Generation) {
    if (!this.source) this.held.set(generation.id, generation);
    this.total += 1;
    this.touch(generation);
  }

  /** Marks a generation changed (a move). */
  touch(generation: Generation) {
    this.pages.clear();
    this.changed.set(generation.id, generation);
    // A running generation is held by its render: everyone must see that one copy. A waiting one is held by id.
    if (generation.status === 'running') this.inFlight.set(generation.id, generation);
    else this.inFlight.delete(generation.id);
  }

  /** How many uncommitted() would give, without building the list. */
  get uncommittedCount(): number {
    return this.changed.size;
  }

  /** The generations added or touched since the last commit. */
  uncommitted(): Generation[] {
    return [...this.changed.values()];
  }

  /** The store of record holds these now: the heap lets go of them (but for the in-flight and the recent cache). */
  committed(generations: Generation[]) {
    for (const g of generations) {
      if (this.changed.get(g.id) === g) this.changed.delete(g.id);
      if (this.source && g.status !== 'running') this.recent.set(g.id, g);
    }
    this.listener?.committed(generations);
  }

  /** The highest seq handed out, so a restored store continues after it. */
  get lastSeq(): number {
    return this.seq;
  }

  /** The copy in the heap, if any: the one the lifecycle and the last change hold. No read of the source. */
  resident(id: string): Generation | undefined {
    return this.changed.get(id) ?? this.inFlight.get(id) ?? this.held.get(id) ?? this.recent.get(id);
  }

  get(id: string): Generation | undefined {
    const kept = this.resident(id);
    if (kept || !this.source) return kept;
    const loaded = this.source.get(id);
    if (loaded) this.recent.set(id, loaded);
    return loaded;
  }

  /**
   * The generations whose next move may be among the `limit` soonest: the running ones and the waiting ones changed
   * since the last commit (the heap's), and the first `limit` of each of the store's due-time indexes (no walk of all).
   */
  soonestToMove(limit: number): Generation[] {
    if (!this.source) return [...this.held.values()].filter((g) => !isFinal(g.status));
    const found = new Map<string, Generation>();
    for (const g of [...this.inFlight.values(), ...this.changed.values()]) if (!isFinal(g.status)) found.set(g.id, g);
    for (const manualOnly of [false, true])
      for (const { key } of this.source.waiting({ manualOnly, upTo: Number.MAX_SAFE_INTEGER, limit })) {
        const g = found.has(key) ? undefined : this.get(key);
        if (g && !isFinal(g.status)) found.set(key, g);
      }
    return [...found.values()];
  }

  /** Every generation, newest first, read a chunk at a time from the source (the heap holds one chunk). */
  *newestFirst(filter: ListFilter & { accountId?: string } = {}): Generator<Generation> {
    if (!this.source) {
      const all = [...this.held.values()].filter(
        (g) => matchesFilter(g, filter) && (!filter.accountId || g.accountId === filter.accountId),
      );
      yield* all.sort((a, b) => b.seq - a.seq);
      return;
    }
    let before = Infinity;
    for (;;) {
      const chunk = this.source.query({ ...filter, before, limit: SCAN_CHUNK });
      for (const g of chunk) yield this.resident(g.id) ?? g;
      if (chunk.length < SCAN_CHUNK) return;
      before = chunk[chunk.length - 1].seq;
    }
  }

  /** Counts by status and a page by offset: the store of record's indexed query when attached, so no walk of them all. */
  census(filter: CensusFilter, offset: number, limit: number): Census {
    if (!this.source) return censusOf(this.newestFirst({ modelSlug: filter.modelSlug }), filter, offset, limit);
    const { modelSlug, status } = filter;
    const text = foldText(filter.text);
    const counts = allStatuses(this.source.countByStatus({ modelSlug, text }));
    const query = { modelSlug, text, status, before: Number.POSITIVE_INFINITY, offset, limit };
    const items = this.source.query(query, (id) => this.resident(id));
    const total = status ? counts[status] : totalOf(counts);
    return { counts, total, items };
  }

  /** Every generation (export): the whole state is the answer, so it is built whole. */
  all(): Generation[] {
    return [...this.newestFirst()].reverse();
  }

  get size(): number {
    return this.total;
  }

  /** A page of `accountId`'s generations newest first, those with a seq below `before` (all when undefined). */
  page(accountId: string, filter: ListFilter, limit: number, before = Infinity): Page {
    const found = this.source
      ? this.sourcePage(this.source, { ...filter, accountId, before, limit: limit + 1 })
      : this.heldPage(accountId, filter, before, limit + 1);
    const items = found.slice(0, limit);
    return { items, nextBefore: found.length > limit ? items[items.length - 1].seq : null };
  }

  /**
   * The page the source gives, or the one it gave for the same query when nothing has changed since: the same objects
   * the heap holds (a change to one of them empties the pages first), so the two never disagree.
   */
  private sourcePage(source: GenerationSource, query: PageQuery): Generation[] {
    const key = pageKey(query);
    const kept = this.pages.get(key);
    if (kept) return kept;
    const found = source.query(query, (id) => this.resident(id));
    for (const g of found) if (g.status !== 'running') this.recent.set(g.id, g);
    this.pages.set(key, found);
    return found;
  }

  private heldPage(accountId: string, filter: ListFilter, before: number, limit: number): Generation[] {
    const out: Generation[] = [];
    for (const g of this.newestFirst({ ...filter, accountId })) {
      if (g.seq >= before) continue;
      out.push(g);
      if (out.length === limit) break;
    }
    return out;
  }
}
