// What the lifecycle says when a control call asks for a move the generation cannot make: failing a finished one, and
// refunding one that has not finished. The control API answers these messages as they are.
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import type { Generation } from '../../../src/domain/generation.js';
import { frozenLifecycle, pendingGeneration } from '../../helpers/lifecycle-fixture.js';

const generation = (status: Generation['status']) => ({ ...pendingGeneration({}, 'gen_7'), status });
const lifecycle = () => frozenLifecycle().lifecycle;

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, message: error.message };
    throw error;
  }
  return undefined;
};

describe('lifecycle refusals', () => {
  it('refuses to fail a finished generation, naming its status and what can fail', () => {
    const error = { code: 'internal_error', message: 'Boom.' } as never;
    expect(refusal(() => lifecycle().fail(generation('completed'), error, { kind: 'full' }))).toEqual({
      code: 'generation_final',
      message: 'Generation gen_7 is already completed; only pending or running generations can fail.',
    });
  });

  it('refuses to refund a generation that has not finished, saying what to do instead', () => {
    expect(refusal(() => lifecycle().refund(generation('running'), { kind: 'full' }))).toEqual({
      code: 'generation_not_final',
      message:
        'Generation gen_7 is still running; refund it once it has completed or failed, or fail it with a refund policy.',
    });
  });
});
