// Reads a request body the way FastAPI does: JSON by content type, Python's decode errors, and the empty-body case.
import { DomainError } from '../../domain/errors.js';
import { validationItem, type ValidationItem } from '../../domain/validation-item.js';
import { hasIntegerLikeKeys, nestingDepth, topLevelKeyOrder } from './json-shape.js';
import { decodePythonJson } from './python-json.js';

export type BodyRead =
  | { kind: 'value'; value: unknown; keyOrder?: string[] }
  | { kind: 'absent' }
  | { kind: 'invalid'; item: ValidationItem };

/** Python's decoder gives up on deeper nesting (RecursionError), which FastAPI answers with a 400. */
export const MAX_JSON_DEPTH = 1000;

/** FastAPI parses as JSON when there is no content type, or when it is application/json or application/*+json. */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return true;
  const [mime] = header.split(';');
  const [main, sub = ''] = mime.trim().toLowerCase().split('/');
  return main === 'application' && (sub === 'json' || sub.endsWith('+json'));
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function readJsonBody(raw: Buffer | undefined, contentType: string | undefined): BodyRead {
  if (!raw || raw.length === 0) return { kind: 'absent' };
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw new DomainError('body_not_utf8', 'The request body is not valid UTF-8. Send JSON encoded as UTF-8.');
  }
  if (!isJsonContentType(contentType)) return { kind: 'value', value: text };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const decoded = decodePythonJson(text);
    if (!decoded.ok) {
      return {
        kind: 'invalid',
        item: validationItem('json_invalid', ['body', decoded.pos], 'JSON decode error', {}, { error: decoded.msg }),
      };
    }
    value = decoded.value;
  }
  if (text.length > MAX_JSON_DEPTH && nestingDepth(text) > MAX_JSON_DEPTH)
    throw new DomainError(
      'body_too_deep',
      `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep. Send a flatter body.`,
    );
  if (value === null) return { kind: 'absent' };
  return hasIntegerLikeKeys(value)
    ? { kind: 'value', value, keyOrder: topLevelKeyOrder(text) }
    : { kind: 'value', value };
}

export const MISSING_BODY_ITEM = (): ValidationItem => validationItem('missing', ['body'], 'Field required', null);
