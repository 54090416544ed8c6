// Unit tests of the generation store's list pages over a committed source: a page read again without a change is
// answered from the heap; an add or a change asks the source again and shows it.
import { describe, expect, it } from 'vitest';
import type { Generation, GenerationStatus } from '../../../src/domain/generation.js';
import { attachedStore, generation, generations, ids } from '../../helpers/generation-rows.js';

/** A store whose generations are all committed, as after a commit of the store of record; its page queries counted. */
function storeWith(n: number) {
  const { store, record, commit } = attachedStore(generations(n));
  return { store, commit, queries: () => record.reads.query };
}

describe('GenerationStore pages', () => {
  it('answers a page read again from the heap, with the same generations', () => {
    const { store, queries } = storeWith(5);
    const first = store.page('acct_a', {}, 2);
    const again = store.page('acct_a', {}, 2);
    expect(queries()).toBe(1);
    expect(ids(again.items)).toEqual(['gen_5', 'gen_4']);
    expect(again.nextBefore).toBe(first.nextBefore);
  });

  it('keeps pages of other queries apart: another account, filter, limit or cursor asks the source', () => {
    const { store, queries } = storeWith(5);
    const first = store.page('acct_a', {}, 2);
    store.page('acct_b', {}, 2);
    store.page('acct_a', { status: 'completed' }, 2);
    store.page('acct_a', {}, 3);
    const next = store.page('acct_a', {}, 2, first.nextBefore as number);
    expect(queries()).toBe(5);
    expect(ids(next.items)).toEqual(['gen_3', 'gen_2']);
    expect(ids(store.page('acct_a', { status: 'completed' }, 2).items)).toEqual([]);
    expect(queries()).toBe(5);
  });

  it('asks the source again after an add, and shows the new generation first', () => {
    const { store, queries, commit } = storeWith(3);
    store.page('acct_a', {}, 2);
    store.add(generation(store.nextSeq()));
    commit();
    expect(ids(store.page('acct_a', {}, 2).items)).toEqual(['gen_4', 'gen_3']);
    expect(queries()).toBe(2);
  });

  it('asks the source again after a change, so a status filter follows the move', () => {
    const { store, queries, commit } = storeWith(3);
    expect(ids(store.page('acct_a', { status: 'pending' }, 10).items)).toEqual(['gen_3', 'gen_2', 'gen_1']);
    const moved = store.get('gen_2') as Generation;
    moved.status = 'completed' satisfies GenerationStatus;
    store.touch(moved);
    commit();
    expect(ids(store.page('acct_a', { status: 'pending' }, 10).items)).toEqual(['gen_3', 'gen_1']);
    expect(ids(store.page('acct_a', { status: 'completed' }, 10).items)).toEqual(['gen_2']);
    expect(queries()).toBe(3);
  });
});
