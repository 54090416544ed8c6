// The one error mapper: domain codes to statuses (from the table), 422s in FastAPI form, and never a bare 500.
import { CodedError, ValidationFailure } from '../domain/errors.js';
import { answeredCode, statusFor } from './error-statuses.js';
import { errorAnswer, starlette500, validationAnswer } from './answers.js';
import type { ServiceRequest, ServiceResponse } from './exchange.js';
import type { Miss } from './front-door.js';
import { UnrenderableJson } from './validation/python-values.js';

/**
 * A request the host could not read as sent (a charset it cannot decode, a body that is not the JSON a route takes):
 * answered with its status and `bad_request`, as the HTTP layer's own refusals always were.
 */
export class UnreadableRequest extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

export const INTERNAL =
  'The emulator hit an internal error. This is a bug in the emulator; please report it with the request.';

/** The front door's 404, also the console's for a file it does not have: no route takes this method and path. */
export const routeNotFound = ({ method, path }: Pick<ServiceRequest, 'method' | 'path'>): ServiceResponse =>
  errorAnswer(404, 'route_not_found', `No route ${method} ${path}. The API lives under /v1/media; see /openapi.json.`);

export interface ErrorAnswers {
  /** The answer to a thrown error; an unexpected one is logged and answered with the 500 envelope. */
  answer(error: unknown, request: ServiceRequest): ServiceResponse;
  /** The front door's own answers: 404, 405 with Allow, 400 for a path parameter that does not decode. */
  miss(miss: Miss, request: ServiceRequest): ServiceResponse;
}

export function errorAnswers(
  statuses: Record<string, number>,
  log: (line: string) => void,
  codes: Record<string, string> = {},
): ErrorAnswers {
  const mapped = (error: unknown, request: ServiceRequest): ServiceResponse => {
    if (error instanceof ValidationFailure) return validationAnswer(error.items);
    if (error instanceof UnrenderableJson) return starlette500();
    if (error instanceof CodedError) {
      const status = statusFor(error.code, statuses);
      const answer = errorAnswer(status, answeredCode(error.code, codes), error.message, error.details);
      const retryAfter = error.details?.retry_after_seconds;
      if (typeof retryAfter === 'number') answer.headers['Retry-After'] = String(retryAfter);
      return answer;
    }
    if (error instanceof UnreadableRequest)
      return errorAnswer(
        error.status,
        'bad_request',
        `The request could not be read (${error.reason}). Check the body and headers.`,
      );
    log(
      `internal error on ${request.method} ${request.path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return errorAnswer(500, 'internal_error', INTERNAL);
  };
  return {
    answer(error, request) {
      try {
        return mapped(error, request);
      } catch (failure) {
        // Even an answer we cannot serialise gets the envelope.
        log(
          `error mapping failed on ${request.method} ${request.path}: ${failure instanceof Error ? failure.message : String(failure)}`,
        );
        return errorAnswer(500, 'internal_error', INTERNAL);
      }
    },
    miss(miss, request) {
      if (miss.reason === 'bad_escape')
        return errorAnswer(
          400,
          'bad_request',
          `The request could not be read (Failed to decode param '${miss.value}'). Check the body and headers.`,
        );
      if (miss.reason === 'not_allowed') {
        const answer = errorAnswer(
          405,
          'method_not_allowed',
          `${request.method} is not allowed on ${request.path}; use ${miss.allow.join(' or ')}.`,
        );
        answer.headers.Allow = miss.allow.join(', ');
        return answer;
      }
      return routeNotFound(request);
    },
  };
}
