// Domain errors carry a stable code; http/ maps codes to statuses in one table.
import type { ErrorCode } from './error-codes.js';
import type { ValidationItem } from './validation-item.js';

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra members for the error envelope, e.g. { retry_after_seconds }. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** A 422 in the FastAPI `detail` form, raised by model rules as well as schema validation. */
export class ValidationFailure extends Error {
  constructor(readonly items: ValidationItem[]) {
    super(items.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
    this.name = 'ValidationFailure';
  }
}
