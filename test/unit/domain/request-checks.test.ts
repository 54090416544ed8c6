// checkKeyScope on its own: a key limited to one model is refused another, with a message naming both. No emulator.
import { describe, expect, it } from 'vitest';
import type { ApiKey } from '../../../src/domain/accounts.js';
import type { ModelEntry } from '../../../src/domain/catalogue-schema.js';
import { DomainError } from '../../../src/domain/errors.js';
import { checkKeyScope } from '../../../src/domain/request-checks.js';

const key = (modelScope: string | null): ApiKey => ({
  id: 1,
  secret: 'sk_test',
  accountId: 'acct_1',
  name: 'test',
  modelScope,
  dailyCreditLimit: null,
  createdAt: 0,
  revokedAt: null,
});

/** The model a request names; the check compares its slug only, so the rest of the catalogue entry is left out. */
const model = { slug: 'keyframe-pro-v2' } as ModelEntry;

describe('checkKeyScope', () => {
  it('lets a key without a model limit, or one limited to this model, use it', () => {
    expect(() => checkKeyScope(key(null), model)).not.toThrow();
    expect(() => checkKeyScope(key('keyframe-pro-v2'), model)).not.toThrow();
  });

  it('refuses a key limited to another model with model_not_allowed_for_key, naming both models', () => {
    expect(() => checkKeyScope(key('motion-lite-v1'), model)).toThrow(DomainError);
    expect(() => checkKeyScope(key('motion-lite-v1'), model)).toThrow(
      expect.objectContaining({
        code: 'model_not_allowed_for_key',
        message:
          "This API key is limited to model 'motion-lite-v1'; use a key without a model limit for 'keyframe-pro-v2'.",
      }),
    );
  });
});
