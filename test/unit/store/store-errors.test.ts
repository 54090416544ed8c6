// The store's own refusal: its code, its message, and its name as a log line or a stack trace shows it.
import { describe, expect, it } from 'vitest';
import { CodedError } from '../../../src/domain/errors.js';
import { STORE_ERROR_STATUSES, StoreError } from '../../../src/store/store-errors.js';

describe('StoreError', () => {
  it('is a coded refusal named StoreError, answered 409', () => {
    const error = new StoreError('state_not_loaded', 'call start() first');
    expect(error).toBeInstanceOf(CodedError);
    expect(error.code).toBe('state_not_loaded');
    expect(error.message).toBe('call start() first');
    expect(String(error)).toBe('StoreError: call start() first');
    expect(STORE_ERROR_STATUSES[error.code]).toBe(409);
  });
});
