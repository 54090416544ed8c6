// Property, differential: the console's summary (counted and paged by SQLite, its search folded by a JavaScript
// function inside SQL) answers what the same rule gives when applied in JavaScript to every generation.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { censusOf } from '../../src/domain/generation-census.js';
import type { Generation } from '../../src/domain/generation.js';
import { controlled, idem, submission } from '../helpers/controlled-emulator.js';
import { PARAMETERS, TIMEOUT } from './runs.js';

/** Letters whose lower case differs beyond ASCII (and one whose lower case is longer: İ). */
const LETTERS = [...'aAbBzZ xyÉéÀàßÇçİiΣσςÖö1(%_'];
const text = (maxLength: number) => fc.array(fc.constantFrom(...LETTERS), { maxLength }).map((cs) => cs.join(''));
const MODELS = ['still-sketch-v1', 'motion-lite-v1'];

const env = controlled({ timing: 'manual', initialBalance: 1_000_000 });
let all: Generation[] = [];

beforeAll(async () => {
  const prompts = fc.sample(
    text(12).filter((p) => p.trim() !== ''),
    { numRuns: 40, seed: 7 },
  );
  const created: Generation[] = [];
  for (const [n, prompt] of prompts.entries()) {
    const modelSlug = MODELS[n % 2];
    const { id } = (await env.api.submit(submission({ prompt, model_slug: modelSlug, max_credits: 10_000 }), idem(n)))
      .body.generation;
    created.push({ id, prompt, modelSlug, status: 'pending' } as Generation);
  }
  // Two of them moved on, so the counts have more than one status.
  for (const g of [created[3], created[30]]) {
    await env.control.fail(g.id, { code: 'internal_error' });
    g.status = 'failed';
  }
  // What the rule is applied to in JavaScript: every generation as submitted, newest first, read from no query.
  all = created.reverse();
}, TIMEOUT(60_000));

describe('console search', () => {
  it(
    'counts, totals and pages exactly as the rule applied in JavaScript to every generation',
    async () => {
      const query = fc.record(
        {
          q: fc.oneof(text(3), fc.constantFrom(...all.map((g) => g.prompt.slice(1, 4).toUpperCase()))),
          model: fc.constantFrom(...MODELS),
          status: fc.constantFrom('pending', 'failed' as const),
          offset: fc.integer({ min: 0, max: 45 }),
          limit: fc.integer({ min: 1, max: 10 }),
        },
        { requiredKeys: ['offset', 'limit'] },
      );
      await fc.assert(
        fc.asyncProperty(query, async (q) => {
          const answer = (await env.control.summary(q)).generations;
          const newestFirst = all.filter((g) => !q.model || g.modelSlug === q.model);
          const expected = censusOf(newestFirst, { text: q.q, status: q.status }, q.offset, q.limit);
          expect(answer.counts).toEqual(expected.counts);
          expect(answer.total).toBe(expected.total);
          expect(answer.items.map((g) => g.id)).toEqual(expected.items.map((g) => g.id));
        }),
        PARAMETERS(150),
      );
    },
    TIMEOUT(60_000),
  );
});
