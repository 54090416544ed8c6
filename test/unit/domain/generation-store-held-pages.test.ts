// Holds that a list of one account's generations from the heap (no store of record attached) pages newest first by
// seq: each page the limit, its cursor the last seq shown, the next page strictly below it, no cursor after the last.
import { describe, expect, it } from 'vitest';
import { generations, heldStore, ids } from '../../helpers/generation-rows.js';

describe('GenerationStore pages from the heap', () => {
  it('pages one account newest first, each page strictly below the last one shown', () => {
    const store = heldStore(generations(7, (seq) => ({ accountId: seq === 4 ? 'acct_b' : 'acct_a' })));
    const first = store.page('acct_a', {}, 2);
    expect(ids(first.items)).toEqual(['gen_7', 'gen_6']);
    expect(first.nextBefore).toBe(6);
    const second = store.page('acct_a', {}, 2, 6);
    expect(ids(second.items)).toEqual(['gen_5', 'gen_3']);
    expect(second.nextBefore).toBe(3);
    const last = store.page('acct_a', {}, 2, 3);
    expect(ids(last.items)).toEqual(['gen_2', 'gen_1']);
    expect(last.nextBefore).toBeNull();
    expect(ids(store.page('acct_b', {}, 2).items)).toEqual(['gen_4']);
  });

  it('gives no cursor when the page holds exactly what is left', () => {
    const store = heldStore(generations(3));
    const page = store.page('acct_a', {}, 3);
    expect(ids(page.items)).toEqual(['gen_3', 'gen_2', 'gen_1']);
    expect(page.nextBefore).toBeNull();
  });

  it('pages by the list filter', () => {
    const store = heldStore(generations(5, (seq) => ({ status: seq % 2 ? 'completed' : 'pending' })));
    const page = store.page('acct_a', { status: 'completed' }, 1);
    expect(ids(page.items)).toEqual(['gen_5']);
    expect(ids(store.page('acct_a', { status: 'completed' }, 5, page.nextBefore as number).items)).toEqual([
      'gen_3',
      'gen_1',
    ]);
  });
});
