// The list filter applied to generations held in memory (a host with no store of record): each field narrows the list,
// `from` is inclusive and `to` exclusive, as the SQL behind the store of record has them.
import { describe, expect, it } from 'vitest';
import type { Generation } from '../../../src/domain/generation.js';
import { type ListFilter, matchesFilter } from '../../../src/domain/generation-source.js';

const generation = { kind: 'video', status: 'running', modelSlug: 'veo-3', createdAt: 1_000 } as Generation;

describe('matchesFilter', () => {
  it('lets every generation through an empty filter', () => {
    expect(matchesFilter(generation, {})).toBe(true);
  });

  it('keeps a generation each of whose fields the filter names', () => {
    const filter: ListFilter = { kind: 'video', status: 'running', modelSlug: 'veo-3', from: 1_000, to: 1_001 };
    expect(matchesFilter(generation, filter)).toBe(true);
  });

  it.each<[string, ListFilter]>([
    ['another kind', { kind: 'image' }],
    ['another status', { status: 'completed' }],
    ['another model', { modelSlug: 'flux-pro' }],
    ['a later start', { from: 1_001 }],
    ['an end at its creation', { to: 1_000 }],
    ['an earlier end', { to: 999 }],
  ])('drops a generation for %s, whatever the other fields say', (_, mismatch) => {
    const rest: ListFilter = { kind: 'video', status: 'running', modelSlug: 'veo-3', from: 0, to: 2_000 };
    expect(matchesFilter(generation, { ...rest, ...mismatch })).toBe(false);
    expect(matchesFilter(generation, mismatch)).toBe(false);
  });

  it('counts the start as inclusive and the end as exclusive', () => {
    expect(matchesFilter(generation, { from: 1_000 })).toBe(true);
    expect(matchesFilter(generation, { from: 999 })).toBe(true);
    expect(matchesFilter(generation, { to: 1_001 })).toBe(true);
  });
});
