// Unit tests of the generation store's list pages over a committed source: a page read again without a change is
// answered from the heap; an add or a change asks the source again and shows it.
import { describe, expect, it } from 'vitest';
import type { Generation, GenerationStatus } from '../../../src/domain/generation.js';
import type { GenerationSource } from '../../../src/domain/generation-source.js';
import { GenerationStore } from '../../../src/domain/generation-store.js';

const generation = (seq: number, accountId = 'acct_a'): Generation =>
  ({
    id: `gen_${seq}`,
    seq,
    accountId,
    status: 'pending',
    kind: 'video',
    modelSlug: 'm',
    createdAt: seq,
  }) as Generation;

/** A store of record in memory: documents by id, a query per page read, counted. */
function committedRows() {
  const rows = new Map<string, string>();
  let queries = 0;
  const parse = (json: string) => JSON.parse(json) as Generation;
  const source: GenerationSource = {
    get: (id) => (rows.has(id) ? parse(rows.get(id) as string) : undefined),
    query(q, held) {
      queries += 1;
      return [...rows.values()]
        .map(parse)
        .filter((g) => g.seq < q.before && (!q.accountId || g.accountId === q.accountId))
        .filter((g) => !q.status || g.status === q.status)
        .sort((a, b) => b.seq - a.seq)
        .slice(0, q.limit)
        .map((g) => held?.(g.id) ?? g);
    },
    count: () => rows.size,
    // The console's census is not what these tests read.
    countByStatus: () => ({}),
    waiting: () => [],
  };
  return {
    source,
    write: (gs: Generation[]) => {
      for (const g of gs) rows.set(g.id, JSON.stringify(g));
    },
    queries: () => queries,
  };
}

/** A store whose generations are all committed, as after a commit of the store of record. */
function storeWith(n: number) {
  const rows = committedRows();
  const store = new GenerationStore();
  for (let seq = 1; seq <= n; seq++) store.add(generation(store.nextSeq()));
  rows.write(store.uncommitted());
  store.attach(rows.source);
  /** What the persistence does for a change: the store of record takes it, then the heap lets go of it. */
  const commit = () => {
    const changed = store.uncommitted();
    rows.write(changed);
    store.committed(changed);
  };
  return { store, rows, commit };
}

const ids = (gs: Generation[]) => gs.map((g) => g.id);

describe('GenerationStore pages', () => {
  it('answers a page read again from the heap, with the same generations', () => {
    const { store, rows } = storeWith(5);
    const first = store.page('acct_a', {}, 2);
    const again = store.page('acct_a', {}, 2);
    expect(rows.queries()).toBe(1);
    expect(ids(again.items)).toEqual(['gen_5', 'gen_4']);
    expect(again.nextBefore).toBe(first.nextBefore);
  });

  it('keeps pages of other queries apart: another account, filter, limit or cursor asks the source', () => {
    const { store, rows } = storeWith(5);
    const first = store.page('acct_a', {}, 2);
    store.page('acct_b', {}, 2);
    store.page('acct_a', { status: 'completed' }, 2);
    store.page('acct_a', {}, 3);
    const next = store.page('acct_a', {}, 2, first.nextBefore as number);
    expect(rows.queries()).toBe(5);
    expect(ids(next.items)).toEqual(['gen_3', 'gen_2']);
    expect(ids(store.page('acct_a', { status: 'completed' }, 2).items)).toEqual([]);
    expect(rows.queries()).toBe(5);
  });

  it('asks the source again after an add, and shows the new generation first', () => {
    const { store, rows, commit } = storeWith(3);
    store.page('acct_a', {}, 2);
    store.add(generation(store.nextSeq()));
    commit();
    expect(ids(store.page('acct_a', {}, 2).items)).toEqual(['gen_4', 'gen_3']);
    expect(rows.queries()).toBe(2);
  });

  it('asks the source again after a change, so a status filter follows the move', () => {
    const { store, rows, commit } = storeWith(3);
    expect(ids(store.page('acct_a', { status: 'pending' }, 10).items)).toEqual(['gen_3', 'gen_2', 'gen_1']);
    const moved = store.get('gen_2') as Generation;
    moved.status = 'completed' satisfies GenerationStatus;
    store.touch(moved);
    commit();
    expect(ids(store.page('acct_a', { status: 'pending' }, 10).items)).toEqual(['gen_3', 'gen_1']);
    expect(ids(store.page('acct_a', { status: 'completed' }, 10).items)).toEqual(['gen_2']);
    expect(rows.queries()).toBe(3);
  });
});
