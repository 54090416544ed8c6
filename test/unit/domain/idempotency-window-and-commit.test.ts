// The idempotency store at the end of the window for committed records, the reuse message, and what committing does without a store of record.
import { describe, expect, it } from 'vitest';
import { type IdempotencyEntry, type IdempotencySource, IdempotencyStore } from '../../../src/domain/idempotency.js';

const WINDOW = 1000;
const response = { status: 202, body: { id: 'g1' } };

/** A store of record in memory holding `records`, as the SQL behind record-sources.ts does. */
function memorySource(records: Map<string, IdempotencyEntry>): IdempotencySource {
  return { get: (key) => records.get(key), all: () => [...records] };
}

describe('IdempotencyStore', () => {
  it('treats a committed record as expired at exactly the end of its window, as a record in the heap is', () => {
    const heap = new IdempotencyStore(WINDOW);
    heap.record(1, 'k', 'fp', 'g1', response, 0);
    expect(heap.lookup(1, 'k', 'fp', WINDOW)).toEqual({ kind: 'new' });

    const records = new Map<string, IdempotencyEntry>();
    const store = new IdempotencyStore(WINDOW);
    store.attach(memorySource(records));
    store.record(1, 'k', 'fp', 'g1', response, 0);
    for (const [key, entry] of store.uncommitted()) records.set(key, entry);
    store.committed(store.uncommitted().map(([key]) => key));
    expect(store.lookup(1, 'k', 'fp', WINDOW - 1)).toEqual({ kind: 'replay', response, generationId: 'g1' });
    expect(store.lookup(1, 'k', 'fp', WINDOW)).toEqual({ kind: 'new' });
  });

  it('tells a client that reuses a key with another body what to do instead', () => {
    const store = new IdempotencyStore(WINDOW);
    store.record(1, 'k', 'fp', 'g1', response, 0);
    expect(() => store.lookup(1, 'k', 'other', 10)).toThrow(
      expect.objectContaining({
        code: 'idempotency_key_reused',
        message:
          'This Idempotency-Key was already used with a different request body. Use a new key for a new request, or resend the original body to get the original result.',
      }),
    );
  });

  it('has nothing uncommitted and keeps every record in the heap while no store of record is attached', () => {
    const store = new IdempotencyStore(WINDOW);
    store.record(1, 'k', 'fp', 'g1', response, 0);
    expect(store.uncommitted()).toEqual([]);
    expect(store.uncommittedCount).toBe(0);
    // A commit without a store of record (the whole state is saved) must not drop the records it saved.
    store.committed(store.snapshot().map(([key]) => key));
    expect(store.size).toBe(1);
    expect(store.lookup(1, 'k', 'fp', 10)).toEqual({ kind: 'replay', response, generationId: 'g1' });
  });
});
