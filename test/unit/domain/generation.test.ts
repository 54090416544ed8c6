// A generation's statuses: which are final, with no move left in the transition table.
import { describe, expect, it } from 'vitest';
import { GENERATION_STATUSES, isFinal } from '../../../src/domain/generation.js';

describe('isFinal', () => {
  it('holds for completed and failed, and for neither pending nor running', () => {
    expect(GENERATION_STATUSES.filter(isFinal)).toEqual(['completed', 'failed']);
  });
});
