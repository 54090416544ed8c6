// The emulation plane's own error codes and their statuses: registered with the core's error table by each emulator.
import { CodedError } from '../domain/errors.js';

/** Codes only an emulator answers (its guard, admin token and control plane); one line per code. */
export const PLANE_ERROR_STATUSES = {
  // the plane guard (before the admin token)
  host_not_allowed: 403,
  origin_not_allowed: 403,
  path_not_canonical: 400,
  // control plane
  admin_token_required: 401,
  admin_token_invalid: 401,
  account_exists: 409,
  invalid_control_request: 422,
  invalid_fault_rule: 422,
  fault_not_found: 404,
  fault_exists: 409,
  invalid_scenario: 422,
  scenario_not_found: 404,
  unreachable_state: 409,
  // console views
  generation_not_completed: 409,
  nothing_scheduled: 409,
  journal_entry_not_found: 404,
  // sandboxes
  sandbox_not_found: 404,
  sandbox_limit_reached: 429,
  sandbox_token_forbidden: 403,
} as const satisfies Record<string, number>;

export type PlaneErrorCode = keyof typeof PLANE_ERROR_STATUSES;

/** A refusal of the plane: the compiler checks the code against the plane's list, the core's table gives its status. */
export class PlaneError extends CodedError {
  declare readonly code: PlaneErrorCode;

  constructor(code: PlaneErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, message, details);
    this.name = 'PlaneError';
  }
}
