// Unit tests of the imported state's refusal: 422 invalid_state naming the first 20 bad fields and counting the rest.
import { describe, expect, it } from 'vitest';
import { invalidState, notAnExport } from '../../../src/domain/state-problems.js';

const problems = (n: number) => Array.from({ length: n }, (_, i) => ({ field: `f${i}`, message: 'bad' }));

describe('invalidState', () => {
  it('names every problem when there are 20 or fewer', () => {
    const error = invalidState('The state is inconsistent', problems(2));
    expect(error.code).toBe('invalid_state');
    expect(error.message).toBe('The state is inconsistent: f0: bad; f1: bad.');
    expect(error.details).toEqual({ problems: problems(2) });
    expect(invalidState('Intro', problems(20)).message).not.toContain('more');
  });

  it('names the first 20 and counts the rest, with thousands separators', () => {
    const error = invalidState('Intro', problems(1_234));
    const named = problems(20)
      .map((p) => `${p.field}: ${p.message}`)
      .join('; ');
    expect(error.message).toBe(`Intro: ${named}; and 1,214 more.`);
    expect(error.details).toEqual({ problems: problems(20) });
  });

  it('says a document is not an export of this emulator', () => {
    expect(notAnExport(problems(1)).message).toBe('The state is not an export of this emulator: f0: bad.');
  });
});
