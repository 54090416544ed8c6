// Holds that a read of one generation gives the copy the heap moves, and reads the store of record once per generation
// the heap has let go of, with a bounded heap: a polled generation costs one read, a long history no memory.
import { describe, expect, it } from 'vitest';
import type { Generation } from '../../../src/domain/generation.js';
import { attachedStore, generation, generations, ids } from '../../helpers/generation-rows.js';

describe('GenerationStore reads of one generation', () => {
  it('gives the copy the heap moves, before and after the store of record has it', () => {
    const { store, record, commit } = attachedStore(generations(2));
    const g = store.get('gen_1') as Generation;
    g.status = 'running';
    store.touch(g);
    expect(store.get('gen_1')).toBe(g);
    commit();
    // The render holds the running one: every reader must see that copy, not one read back from the store.
    expect(store.get('gen_1')).toBe(g);
    g.status = 'completed';
    store.touch(g);
    expect(store.get('gen_1')?.status).toBe('completed');
    commit();
    expect(store.get('gen_1')).toBe(g);
    expect(record.reads.get).toBe(1);
  });

  it('reads a generation just accepted and committed without asking the store of record', () => {
    const { store, record, commit } = attachedStore();
    store.add(generation(store.nextSeq()));
    commit();
    expect(store.get('gen_1')?.status).toBe('pending');
    expect(record.reads.get).toBe(0);
  });

  it('reads a committed generation polled again from the store of record once', () => {
    const { store, record } = attachedStore(generations(3));
    const first = store.get('gen_2');
    const again = store.get('gen_2');
    expect(again).toBe(first);
    expect(again?.seq).toBe(2);
    expect(record.reads.get).toBe(1);
  });

  it('reads a generation seen on a list page without asking the store of record again', () => {
    const { store, record } = attachedStore(generations(3));
    store.page('acct_a', {}, 10);
    expect(store.get('gen_2')?.seq).toBe(2);
    expect(record.reads.get).toBe(0);
  });

  it('keeps the recent generations when a client polls an id that does not exist', () => {
    const { store, record } = attachedStore(generations(1000));
    for (let seq = 1; seq <= 1000; seq++) store.get(`gen_${seq}`);
    expect(store.get('gen_missing')).toBeUndefined();
    expect(store.get('gen_1')?.seq).toBe(1);
    expect(record.reads.get).toBe(1001);
  });

  it('lets go of the oldest finished generations past 1000: the heap does not grow with the history', () => {
    const { store, record, commit } = attachedStore();
    const all: Generation[] = [];
    for (let i = 0; i < 1001; i++) {
      const g = generation(store.nextSeq());
      all.push(g);
      store.add(g);
    }
    commit();
    for (const status of ['running', 'completed'] as const) {
      for (const g of all) {
        g.status = status;
        store.touch(g);
      }
      commit();
    }
    expect(store.get('gen_1001')).toBe(all[1000]);
    expect(record.reads.get).toBe(0);
    const oldest = store.get('gen_1');
    expect(oldest).not.toBe(all[0]);
    expect(oldest?.status).toBe('completed');
    expect(record.reads.get).toBe(1);
  });

  it('reads no document again for a list page of generations the heap holds', () => {
    const { store, record, commit } = attachedStore();
    const accepted = [generation(store.nextSeq()), generation(store.nextSeq())];
    for (const g of accepted) store.add(g);
    commit();
    const page = store.page('acct_a', {}, 10);
    expect(page.items).toEqual([accepted[1], accepted[0]]);
    expect(page.items[0]).toBe(accepted[1]);
    expect(record.reads.documents).toBe(0);
  });

  it('keeps the 1000 recent generations apart from the running ones, which the heap holds anyway', () => {
    const { store, record, commit } = attachedStore(generations(1000));
    for (let seq = 1; seq <= 1000; seq++) store.get(`gen_${seq}`);
    const running = generation(store.nextSeq());
    store.add(running);
    running.status = 'running';
    store.touch(running);
    commit();
    expect(store.get('gen_1')?.seq).toBe(1);
    expect(ids(store.page('acct_a', { status: 'running' }, 10).items)).toEqual(['gen_1001']);
    expect(store.get('gen_2')?.seq).toBe(2);
    expect(store.get('gen_1001')).toBe(running);
    expect(record.reads.get).toBe(1000);
  });
});
