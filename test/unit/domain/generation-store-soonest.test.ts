// Holds that the generations whose next move may come soonest are every unfinished one the heap moves and the first
// waiting ones the store of record indexes (auto and manual-only), each once, and never a finished one.
import { describe, expect, it } from 'vitest';
import type { Generation } from '../../../src/domain/generation.js';
import { GenerationStore } from '../../../src/domain/generation-store.js';
import { attachedStore, generation, generations, ids } from '../../helpers/generation-rows.js';

const sorted = (gs: Generation[]) => ids(gs).sort();

describe('GenerationStore soonest to move', () => {
  it('gives every unfinished generation of a heap without a store of record', () => {
    const store = new GenerationStore();
    const statuses = ['pending', 'running', 'completed', 'failed', 'pending'] as const;
    for (const status of statuses) store.add(generation(store.nextSeq(), { status }));
    expect(sorted(store.soonestToMove(10))).toEqual(['gen_1', 'gen_2', 'gen_5']);
  });

  it('gives the running, the moved and the stored waiting ones (auto and manual-only), but no finished one', () => {
    const stored = generations(4, (seq) => ({
      plan: { pendingMs: 0, runningMs: 0, manualOnly: seq >= 3 },
    }));
    const { store, commit } = attachedStore(stored);
    // gen_5 runs (committed: only the heap's in-flight copy says so); gen_6 is accepted, not committed yet.
    const running = generation(store.nextSeq());
    store.add(running);
    running.status = 'running';
    store.touch(running);
    commit();
    store.add(generation(store.nextSeq()));
    // gen_1 and gen_3 finished in the heap; the store of record still lists them as waiting.
    for (const id of ['gen_1', 'gen_3']) {
      const g = store.get(id) as Generation;
      g.status = 'completed';
      store.touch(g);
    }
    const soonest = store.soonestToMove(10);
    expect(sorted(soonest)).toEqual(['gen_2', 'gen_4', 'gen_5', 'gen_6']);
    expect(soonest.find((g) => g.id === 'gen_5')).toBe(running);
  });
});
