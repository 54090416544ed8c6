// FormattedTimestamps: a generation's timestamps are formatted once and the same texts answered on every later read
// (list pages read hundreds a second); a completion after the first read is formatted when it happens.
import { describe, expect, it } from 'vitest';
import type { Generation } from '../../../src/domain/generation.js';
import { FormattedTimestamps } from '../../../src/domain/generation-view.js';

const CREATED = Date.parse('2026-01-02T03:04:05.006Z');
const COMPLETED = Date.parse('2026-01-02T03:05:06.506Z');
const generation = (completedAt: number | null) => ({ createdAt: CREATED, completedAt }) as Generation;

describe('FormattedTimestamps.of', () => {
  it('formats a pending generation once: a second read answers the same texts', () => {
    const timestamps = new FormattedTimestamps();
    const g = generation(null);
    const first = timestamps.of(g);
    expect(first).toEqual({ createdAt: '2026-01-02T03:04:05.006+00:00', completedAt: null });
    expect(timestamps.of(g)).toBe(first);
  });

  it('formats a completed generation once: a second read answers the same texts', () => {
    const timestamps = new FormattedTimestamps();
    const g = generation(COMPLETED);
    const first = timestamps.of(g);
    expect(first).toEqual({ createdAt: '2026-01-02T03:04:05.006+00:00', completedAt: '2026-01-02T03:05:06.506+00:00' });
    expect(timestamps.of(g)).toBe(first);
  });

  it('formats the completion of a generation read before it completed, then keeps that', () => {
    const timestamps = new FormattedTimestamps();
    const g = generation(null);
    timestamps.of(g);
    g.completedAt = COMPLETED;
    const completed = timestamps.of(g);
    expect(completed.completedAt).toBe('2026-01-02T03:05:06.506+00:00');
    expect(timestamps.of(g)).toBe(completed);
  });

  it('keeps each context’s texts apart', () => {
    const g = generation(COMPLETED);
    expect(new FormattedTimestamps().of(g)).not.toBe(new FormattedTimestamps().of(g));
  });
});
