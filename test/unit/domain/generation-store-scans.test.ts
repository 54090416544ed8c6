// Holds that a walk of every generation (the control list, the export, the console's census) gives each one once, in
// order, as the heap has it, whether the generations are all in the heap or in the store of record.
import { describe, expect, it } from 'vitest';
import type { Generation } from '../../../src/domain/generation.js';
import { attachedStore, generation, generations, heldStore, ids } from '../../helpers/generation-rows.js';

/** Seq 1..6 over two accounts, models and kinds; 2 and 5 completed, 4 failed. */
const mixed = () =>
  generations(6, (seq) => ({
    accountId: seq % 2 ? 'acct_a' : 'acct_b',
    modelSlug: seq <= 3 ? 'm' : 'n',
    kind: seq === 6 ? 'image' : 'video',
    status: seq === 2 || seq === 5 ? 'completed' : seq === 4 ? 'failed' : 'pending',
    prompt: seq === 3 ? 'A Red Fox' : `prompt ${seq}`,
  }));

describe('GenerationStore walks', () => {
  it('walks more generations than one read of the store of record gives, newest first, each once', () => {
    const { store } = attachedStore(generations(1201));
    const walked = ids(store.newestFirst());
    expect(walked).toHaveLength(1201);
    expect(new Set(walked).size).toBe(1201);
    expect(walked[0]).toBe('gen_1201');
    expect(walked[500]).toBe('gen_701');
    expect(walked[1200]).toBe('gen_1');
  });

  it('walks the store of record by filter and account', () => {
    const { store } = attachedStore(mixed());
    expect(ids(store.newestFirst({ accountId: 'acct_a' }))).toEqual(['gen_5', 'gen_3', 'gen_1']);
    expect(ids(store.newestFirst({ status: 'pending', accountId: 'acct_a' }))).toEqual(['gen_3', 'gen_1']);
  });

  it('walks the heap by filter and account, newest first, before a store of record is attached', () => {
    const store = heldStore(mixed());
    expect(ids(store.newestFirst())).toEqual(['gen_6', 'gen_5', 'gen_4', 'gen_3', 'gen_2', 'gen_1']);
    expect(ids(store.newestFirst({ accountId: 'acct_b' }))).toEqual(['gen_6', 'gen_4', 'gen_2']);
    expect(ids(store.newestFirst({ status: 'pending' }))).toEqual(['gen_6', 'gen_3', 'gen_1']);
    expect(ids(store.newestFirst({ modelSlug: 'n', accountId: 'acct_b' }))).toEqual(['gen_6', 'gen_4']);
    expect(ids(store.newestFirst({ kind: 'image' }))).toEqual(['gen_6']);
  });

  it('gives a generation moved since the last commit as the heap has it', () => {
    const { store } = attachedStore(generations(3));
    const g = store.get('gen_2') as Generation;
    g.status = 'running';
    store.touch(g);
    const walked = [...store.newestFirst()];
    expect(walked[1]).toBe(g);
    expect(walked.map((w) => w.status)).toEqual(['pending', 'running', 'pending']);
  });

  it('exports every generation in creation order, from the heap or the store of record', () => {
    expect(ids(heldStore(generations(3)).all())).toEqual(['gen_1', 'gen_2', 'gen_3']);
    const { store, commit } = attachedStore(generations(2));
    store.add(generation(store.nextSeq()));
    commit();
    expect(ids(store.all())).toEqual(['gen_1', 'gen_2', 'gen_3']);
    expect(store.size).toBe(3);
  });

  const censusSources = [
    ['the heap', () => heldStore(mixed())],
    ['the store of record', () => attachedStore(mixed()).store],
  ] as const;

  it.each(censusSources)(
    'counts and pages the census from %s: every status counted, the page by status and offset',
    (_, make) => {
      const store = make();
      const all = store.census({}, 0, 10);
      expect(all.counts).toEqual({ pending: 3, running: 0, completed: 2, failed: 1 });
      expect(all.total).toBe(6);
      expect(ids(all.items)).toEqual(['gen_6', 'gen_5', 'gen_4', 'gen_3', 'gen_2', 'gen_1']);
      const byModel = store.census({ modelSlug: 'n' }, 0, 10);
      expect(byModel.counts).toEqual({ pending: 1, running: 0, completed: 1, failed: 1 });
      expect(ids(byModel.items)).toEqual(['gen_6', 'gen_5', 'gen_4']);
      const pending = store.census({ status: 'pending' }, 1, 1);
      expect(pending.total).toBe(3);
      expect(ids(pending.items)).toEqual(['gen_3']);
      expect(ids(store.census({ text: ' red FOX ' }, 0, 10).items)).toEqual(['gen_3']);
    },
  );

  it('shows a generation moved since the last commit on the census page as the heap has it', () => {
    const { store } = attachedStore(generations(2));
    const g = store.get('gen_1') as Generation;
    g.status = 'running';
    store.touch(g);
    expect(store.census({}, 0, 10).items[1]).toBe(g);
  });

  it('answers the census from the store of record with one page query, reading no document past the page', () => {
    const { store, record } = attachedStore(generations(1201));
    const census = store.census({ status: 'pending' }, 20, 10);
    expect(census.total).toBe(1201);
    expect(ids(census.items)).toEqual(Array.from({ length: 10 }, (_, i) => `gen_${1181 - i}`));
    expect(record.reads.query).toBe(1);
    expect(record.reads.documents).toBe(10);
  });
});
