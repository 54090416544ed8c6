// Unit tests of the idempotency store: per-key scope, fingerprint check, replay, and the expiry window.
import { describe, expect, it } from 'vitest';
import { IdempotencyStore } from '../../../src/domain/idempotency.js';

const WINDOW = 1000;
const response = { status: 202, body: { id: 'g1' } };

describe('IdempotencyStore', () => {
  it('answers new for a key it has not seen, then replays the stored response for the same body', () => {
    const store = new IdempotencyStore(WINDOW);
    expect(store.lookup(1, 'k', 'fp', 0)).toEqual({ kind: 'new' });
    store.record(1, 'k', 'fp', 'g1', response, 0);
    expect(store.lookup(1, 'k', 'fp', 10)).toEqual({ kind: 'replay', response, generationId: 'g1' });
  });

  it('refuses the same key with a different body', () => {
    const store = new IdempotencyStore(WINDOW);
    store.record(1, 'k', 'fp', 'g1', response, 0);
    expect(() => store.lookup(1, 'k', 'other', 10)).toThrow(
      expect.objectContaining({ code: 'idempotency_key_reused' }),
    );
  });

  it('scopes keys per API key, so two API keys may use the same Idempotency-Key', () => {
    const store = new IdempotencyStore(WINDOW);
    store.record(1, 'k', 'fp', 'g1', response, 0);
    expect(store.lookup(2, 'k', 'other', 10)).toEqual({ kind: 'new' });
  });

  it('forgets a record once the window has passed, and so stays bounded', () => {
    const store = new IdempotencyStore(WINDOW);
    store.record(1, 'k', 'fp', 'g1', response, 0);
    expect(store.lookup(1, 'k', 'other', WINDOW)).toEqual({ kind: 'new' });
    expect(store.size).toBe(0);
  });

  it('restores exactly what it snapshotted', () => {
    const store = new IdempotencyStore(WINDOW);
    store.record(1, 'k', 'fp', 'g1', response, 0);
    const copy = new IdempotencyStore(WINDOW);
    copy.restore(store.snapshot());
    expect(copy.lookup(1, 'k', 'fp', 1)).toEqual({ kind: 'replay', response, generationId: 'g1' });
  });
});
