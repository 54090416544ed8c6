// Unit tests of the domain errors as a log or an embedding program sees them: the name and message in String(error).
import { describe, expect, it } from 'vitest';
import { CodedError, DomainError, ValidationFailure } from '../../../src/domain/errors.js';
import { validationItem } from '../../../src/domain/validation-item.js';

describe('domain errors', () => {
  it('name their class and carry the code and details', () => {
    const plugin = new CodedError('quota_exceeded', 'Too many', { retry_after_seconds: 3 });
    expect(String(plugin)).toBe('CodedError: Too many');
    expect(plugin.details).toEqual({ retry_after_seconds: 3 });
    const domain = new DomainError('invalid_state', 'The state is inconsistent');
    expect(String(domain)).toBe('DomainError: The state is inconsistent');
    expect(domain.code).toBe('invalid_state');
  });

  it('ValidationFailure says each failing field and its message, in order', () => {
    const failure = new ValidationFailure([
      validationItem('missing', ['body', 'prompt'], 'Field required', {}),
      validationItem('enum', ['body', 'params', 'size'], "Input should be 'a' or 'b'", 'c'),
    ]);
    expect(String(failure)).toBe(
      "ValidationFailure: body.prompt: Field required; body.params.size: Input should be 'a' or 'b'",
    );
    expect(failure.items).toHaveLength(2);
  });
});
