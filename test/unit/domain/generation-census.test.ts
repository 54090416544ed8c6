// Unit tests of the console's census over the heap's generations: counts by status, a page by offset, text in any case.
import { describe, expect, it } from 'vitest';
import type { Generation } from '../../../src/domain/generation.js';
import { censusOf, foldText } from '../../../src/domain/generation-census.js';

const generation = (id: string, prompt: string, status: Generation['status']) => ({ id, prompt, status }) as Generation;

const newestFirst = [
  generation('gen_4', 'Éclair au café', 'failed'),
  generation('gen_3', 'a fox at night', 'completed'),
  generation('gen_2', 'A FOX IN SNOW', 'pending'),
  generation('gen_1', 'a whale', 'pending'),
];

describe('censusOf', () => {
  it('counts every status of what the text matches, and pages the status asked for', () => {
    const census = censusOf(newestFirst, { text: 'fox', status: 'pending' }, 0, 10);
    expect(census.counts).toEqual({ pending: 1, running: 0, completed: 1, failed: 0 });
    expect([census.total, census.items.map((g) => g.id)]).toEqual([1, ['gen_2']]);
  });

  it('windows the matches by offset and limit, newest first', () => {
    const census = censusOf(newestFirst, {}, 1, 2);
    expect([census.total, census.items.map((g) => g.id)]).toEqual([4, ['gen_3', 'gen_2']]);
  });

  it('matches ids and prompts in any case, beyond ASCII', () => {
    expect(censusOf(newestFirst, { text: ' ÉCLAIR ' }, 0, 10).items.map((g) => g.id)).toEqual(['gen_4']);
    expect(censusOf(newestFirst, { text: 'GEN_1' }, 0, 10).items.map((g) => g.id)).toEqual(['gen_1']);
  });

  it('treats a blank text as no search', () => {
    expect(foldText('   ')).toBeUndefined();
    expect(censusOf(newestFirst, { text: '  ' }, 0, 10).total).toBe(4);
  });
});
