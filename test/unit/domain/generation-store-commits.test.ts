// Holds what a start and each commit of the store of record do to the store: what is still to be written, what the
// listener (the lifecycle) is told, how many generations there are, and where seq numbering continues.
import { describe, expect, it } from 'vitest';
import type { Generation } from '../../../src/domain/generation.js';
import type { CommitListener } from '../../../src/domain/generation-source.js';
import { GenerationStore } from '../../../src/domain/generation-store.js';
import { generation, generations, ids, storeOfRecord } from '../../helpers/generation-rows.js';

/** A listener that records what it is told. */
function recorder() {
  const told: { uncommitted?: string[]; committed: string[][] } = { committed: [] };
  const listener: CommitListener = {
    useStore: (_source, uncommitted) => {
      told.uncommitted = [...uncommitted];
    },
    committed: (gs) => {
      told.committed.push(ids(gs));
    },
  };
  return { told, listener };
}

function filled(gs: Generation[]) {
  const record = storeOfRecord();
  const store = new GenerationStore();
  const { told, listener } = recorder();
  store.listen(listener);
  for (const g of gs) store.add(g);
  record.write(store.uncommitted());
  return { store, record, told };
}

describe('GenerationStore commits', () => {
  it('has nothing left to write once attached to a store of record that holds what was added', () => {
    const { store, record, told } = filled(generations(2));
    expect(store.uncommittedCount).toBe(2);
    store.attach(record.source);
    expect(store.uncommittedCount).toBe(0);
    expect(store.uncommitted()).toEqual([]);
    expect(told.uncommitted).toEqual([]);
    expect(store.size).toBe(2);
  });

  it('keeps the changes a resumed start made still to be written, and tells the listener which', () => {
    const { store, record, told } = filled(generations(2));
    store.attach(record.source, { keepChanged: true });
    expect(ids(store.uncommitted())).toEqual(['gen_1', 'gen_2']);
    expect(told.uncommitted).toEqual(['gen_1', 'gen_2']);
  });

  it('lets go of what a commit wrote and tells the listener, but keeps a copy changed since', () => {
    const { store, record, told } = filled([]);
    store.attach(record.source);
    const first = generation(1);
    const second = generation(2);
    store.add(first);
    store.add(second);
    const batch = store.uncommitted();
    record.write(batch);
    // gen_2 is replaced by a newer copy before the commit is accepted.
    const newer = { ...second, status: 'running' } as Generation;
    store.touch(newer);
    store.committed(batch);
    expect(told.committed).toEqual([['gen_1', 'gen_2']]);
    expect(store.uncommitted()).toEqual([newer]);
    expect(store.size).toBe(2);
  });

  it('counts the stored generations and every one added since', () => {
    const record = storeOfRecord();
    record.write(generations(3));
    const store = new GenerationStore();
    store.attach(record.source);
    store.add(generation(4));
    expect(store.size).toBe(4);
  });

  it('numbers on past the highest seq it is told of, never back', () => {
    const store = new GenerationStore();
    expect(store.nextSeq()).toBe(1);
    store.skipPastSeq(10);
    store.skipPastSeq(4);
    expect(store.lastSeq).toBe(10);
    expect(store.nextSeq()).toBe(11);
    expect(store.lastSeq).toBe(11);
  });
});
