// Zod issues as field problems: the messages an operator reads for a bad state document, journal or fault.
import { describe, it, expect } from 'vitest';
import * as z from 'zod';
import { describeProblems, fieldProblems, nestProblems } from '../../../src/domain/zod-issues.js';

const problemsOf = (schema: z.ZodType, value: unknown, root: PropertyKey[] = []) => {
  const result = schema.safeParse(value);
  if (result.success) throw new Error('expected the value to be refused');
  return fieldProblems(result.error.issues, root);
};

const step = z.strictObject({ balance: z.number(), note: z.string().optional() });

describe('fieldProblems', () => {
  it('says a missing field is required', () => {
    expect(problemsOf(step, {}, ['steps', 2])).toStrictEqual([{ field: 'steps[2].balance', message: 'is required' }]);
  });

  it('says what a field of the wrong type should be, without zod’s prefix', () => {
    expect(problemsOf(step, { balance: 'ten' })).toStrictEqual([
      { field: 'balance', message: 'expected number, received string' },
    ]);
  });

  it('names one unknown field, and several', () => {
    expect(problemsOf(step, { balance: 1, colour: 'red' })).toStrictEqual([
      { field: '(root)', message: 'unknown field "colour"' },
    ]);
    expect(problemsOf(step, { balance: 1, colour: 'red', size: 2 })).toStrictEqual([
      { field: '(root)', message: 'unknown fields "colour", "size"' },
    ]);
  });
});

describe('nestProblems', () => {
  it('names problems from the outer document; a problem of the whole is the field’s', () => {
    expect(
      nestProblems('steps[2]', [
        { field: '(root)', message: 'unknown field "colour"' },
        { field: 'balance', message: 'is required' },
      ]),
    ).toStrictEqual([
      { field: 'steps[2]', message: 'unknown field "colour"' },
      { field: 'steps[2].balance', message: 'is required' },
    ]);
  });
});

describe('describeProblems', () => {
  it('lists each problem after its field', () => {
    expect(
      describeProblems([
        { field: 'steps[2]', message: 'unknown field "colour"' },
        { field: 'balance', message: 'is required' },
      ]),
    ).toBe('steps[2]: unknown field "colour"; balance: is required');
  });
});
