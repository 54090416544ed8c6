// The store of record's own error codes and their statuses, registered with the core's error table by each emulator.
import { CodedError } from '../domain/errors.js';

/**
 * Codes only the store answers. `storage_full` (507) is not here: a refused commit is a promise of the public API
 * (any change may answer it), so it is the core's word, documented on the public routes.
 */
export const STORE_ERROR_STATUSES = {
  state_not_loaded: 409,
} as const satisfies Record<string, number>;

type StoreErrorCode = keyof typeof STORE_ERROR_STATUSES;

/** A refusal of the store: the compiler checks the code against the store's list, the core's table gives its status. */
export class StoreError extends CodedError {
  declare readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string) {
    super(code, message);
    this.name = 'StoreError';
  }
}
