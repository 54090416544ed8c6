// The generation store's unit tests' fixture: generations, and a store of record in memory that keeps them as documents
// (a read gives a fresh copy, as SQL does) and counts its reads.
import type { Generation, GenerationStatus } from '../../src/domain/generation.js';
import type { GenerationSource } from '../../src/domain/generation-source.js';
import { GenerationStore } from '../../src/domain/generation-store.js';

export const generation = (seq: number, over: Partial<Generation> = {}): Generation =>
  ({
    id: `gen_${seq}`,
    seq,
    accountId: 'acct_a',
    status: 'pending',
    kind: 'video',
    modelSlug: 'm',
    prompt: `prompt ${seq}`,
    createdAt: seq,
    plan: { pendingMs: 0, runningMs: 0, manualOnly: false },
    ...over,
  }) as Generation;

export const ids = (gs: Iterable<Generation>) => [...gs].map((g) => g.id);

/** The store of record's generations table in memory: written by `write`, read through `source`. */
export function storeOfRecord() {
  const rows = new Map<string, string>();
  /** Documents read: by get, and by a query for each row the heap did not give (`held`). */
  const reads = { get: 0, query: 0, documents: 0 };
  const parse = (json: string) => JSON.parse(json) as Generation;
  const stored = () => [...rows.values()].map(parse);
  const source: GenerationSource = {
    get(id) {
      reads.get += 1;
      reads.documents += 1;
      const json = rows.get(id);
      return json === undefined ? undefined : parse(json);
    },
    query(q, held) {
      reads.query += 1;
      const offset = q.offset ?? 0;
      return stored()
        .filter(
          (g) =>
            g.seq < q.before &&
            (!q.accountId || g.accountId === q.accountId) &&
            (!q.kind || g.kind === q.kind) &&
            (!q.status || g.status === q.status) &&
            (!q.modelSlug || g.modelSlug === q.modelSlug) &&
            (q.from === undefined || g.createdAt >= q.from) &&
            (q.to === undefined || g.createdAt < q.to) &&
            (!q.text || g.id.includes(q.text) || g.prompt.toLowerCase().includes(q.text)),
        )
        .sort((a, b) => b.seq - a.seq)
        .slice(offset, offset + q.limit)
        .map((g) => {
          const kept = held?.(g.id);
          if (kept) return kept;
          reads.documents += 1;
          return g;
        });
    },
    count: () => rows.size,
    countByStatus({ modelSlug, text }) {
      const counts: Partial<Record<GenerationStatus, number>> = {};
      for (const g of stored()) {
        if (modelSlug && g.modelSlug !== modelSlug) continue;
        if (text && !g.id.includes(text) && !g.prompt.toLowerCase().includes(text)) continue;
        counts[g.status] = (counts[g.status] ?? 0) + 1;
      }
      return counts;
    },
    // The pending generations by when their first move is due, as stored (the heap may have moved them since).
    waiting: ({ manualOnly, limit }) =>
      stored()
        .filter((g) => g.status === 'pending' && g.plan.manualOnly === manualOnly)
        .map((g) => ({ key: g.id, dueAt: g.createdAt + g.plan.pendingMs, rank: g.seq }))
        .sort((a, b) => a.dueAt - b.dueAt || a.rank - b.rank)
        .slice(0, limit),
  };
  return {
    source,
    reads,
    write(gs: Iterable<Generation>) {
      for (const g of gs) rows.set(g.id, JSON.stringify(g));
    },
  };
}

/**
 * A store over a store of record holding `committed` (added, then written and attached, as a start does), and the
 * commit the persistence does for a change: the store of record takes what changed, then the heap lets go of it.
 */
export function attachedStore(committed: Generation[] = []) {
  const record = storeOfRecord();
  const store = new GenerationStore();
  for (const g of committed) {
    store.skipPastSeq(g.seq);
    store.add(g);
  }
  record.write(store.uncommitted());
  store.attach(record.source);
  const commit = () => {
    const changed = store.uncommitted();
    record.write(changed);
    store.committed(changed);
  };
  return { store, record, commit };
}

/** A store without a store of record (a context not written yet): every generation in the heap. */
export function heldStore(gs: Generation[]) {
  const store = new GenerationStore();
  for (const g of gs) {
    store.skipPastSeq(g.seq);
    store.add(g);
  }
  return store;
}

/** `n` generations with seq 1..n, given by `over(seq)`. */
export const generations = (n: number, over: (seq: number) => Partial<Generation> = () => ({})) =>
  Array.from({ length: n }, (_, i) => generation(i + 1, over(i + 1)));
