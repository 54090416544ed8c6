// Generations by id and per account in creation order, with newest-first paging on an opaque, insert-stable cursor.
import { ValidationFailure } from './errors.js';
import type { Generation, GenerationStatus } from './generation.js';
import type { MediaKind } from './catalogue-schema.js';
import { validationItem } from './validation-item.js';

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
  nextCursor: string | null;
}

export const DEFAULT_PAGE_LIMIT = 30;

const encodeCursor = (seq: number) => Buffer.from(JSON.stringify({ v: 1, before: seq })).toString('base64url');

function decodeCursor(cursor: string): number {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { v?: unknown; before?: unknown };
    if (parsed.v === 1 && Number.isSafeInteger(parsed.before)) return parsed.before as number;
  } catch {
    // fall through to the 422 below
  }
  throw new ValidationFailure([
    validationItem(
      'cursor_invalid',
      ['query', 'cursor'],
      'Cursor is not valid; pass the next_cursor value of a previous page unchanged',
      cursor,
    ),
  ]);
}

export class GenerationStore {
  private readonly byId = new Map<string, Generation>();
  private readonly byAccount = new Map<string, Generation[]>();
  private seq = 0;
  /** Added or touched since the store of record last took them: what its next transaction writes. */
  private changed = new Set<Generation>();

  nextSeq(): number {
    return ++this.seq;
  }

  /** The next seq is past `seq` (an imported generation's). */
  skipPastSeq(seq: number) {
    this.seq = Math.max(this.seq, seq);
  }

  add(generation: Generation) {
    this.byId.set(generation.id, generation);
    const list = this.byAccount.get(generation.accountId) ?? [];
    list.push(generation); // seq grows, so each list stays sorted by creation
    this.byAccount.set(generation.accountId, list);
    this.changed.add(generation);
  }

  /** Marks a generation changed outside the lifecycle (link state, a once-only marker spent by a read). */
  touch(generation: Generation) {
    this.changed.add(generation);
  }

  /** The generations added or touched since the last call. */
  takeChanged(): Generation[] {
    const out = [...this.changed];
    this.changed = new Set();
    return out;
  }

  /** The highest seq handed out, so a restored store continues after it. */
  get lastSeq(): number {
    return this.seq;
  }

  get(id: string): Generation | undefined {
    return this.byId.get(id);
  }

  all(): IterableIterator<Generation> {
    return this.byId.values();
  }

  get size(): number {
    return this.byId.size;
  }

  page(accountId: string, filter: ListFilter, limit: number, cursor?: string): Page {
    const list = this.byAccount.get(accountId) ?? [];
    const before = cursor === undefined ? Infinity : decodeCursor(cursor);
    let index = upperIndex(list, before) - 1;
    const items: Generation[] = [];
    for (; index >= 0; index--) {
      const g = list[index];
      if (!matches(g, filter)) continue;
      if (items.length === limit) return { items, nextCursor: encodeCursor(items[items.length - 1].seq) };
      items.push(g);
    }
    return { items, nextCursor: null };
  }
}

/** Index of the first generation whose seq is >= before (binary search). */
function upperIndex(list: Generation[], before: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid].seq < before) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function matches(g: Generation, f: ListFilter): boolean {
  return (
    (!f.kind || g.kind === f.kind) &&
    (!f.status || g.status === f.status) &&
    (!f.modelSlug || g.modelSlug === f.modelSlug) &&
    (f.from === undefined || g.createdAt >= f.from) &&
    (f.to === undefined || g.createdAt < f.to)
  );
}
