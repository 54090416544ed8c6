// Domain errors carry a stable code; http/ maps codes to statuses in one table (plugins add theirs at start).
import type { ErrorCode } from './error-codes.js';
import type { ValidationItem } from './validation-item.js';

/** An error with a stable code: the core's own (DomainError) or one a plugin registered with the error table. */
export class CodedError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** Extra members for the error envelope, e.g. { retry_after_seconds }. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'CodedError';
  }
}

/** The service's own refusals: the compiler checks the code against the core's list. */
export class DomainError extends CodedError {
  declare readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, message, details);
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
