// Reads a request body the way FastAPI does: JSON only for a JSON content type, Python's decoding and decode errors.
import { DomainError } from '../../domain/errors.js';
import { validationItem, type ValidationItem } from '../../domain/validation-item.js';
import { codingHint, decodeJsonBytes, decodeRawText, latin1Text } from './body-encoding.js';
import { nestingDepth } from './json-shape.js';
import { decodePythonJson } from './python-json.js';
import { toJs, UnrenderableJson } from './python-values.js';

export type BodyRead =
  /** `value` is what validation sees; `echo()` is the same input as Python holds it, for 422 `input` members. */
  | { kind: 'value'; value: unknown; echo: () => unknown }
  | { kind: 'absent' }
  | { kind: 'invalid'; item: ValidationItem };

/** Python's decoder gives up on deeper nesting (RecursionError), which FastAPI answers with a 400. */
export const MAX_JSON_DEPTH = 1000;

/** FastAPI (0.132 and later) parses JSON only for application/json or application/*+json; no content type is not JSON. */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const [mime] = header.split(';');
  const [main, sub = ''] = mime.trim().toLowerCase().split('/');
  return main === 'application' && (sub === 'json' || sub.endsWith('+json'));
}

/** JSON.parse rounds integers past 2^53; those bodies take Python's reading so every digit and int/float survive. */
const LONG_DIGITS = /\d{16}/;

function once<T>(make: () => T): () => T {
  let value: { v: T } | undefined;
  return () => {
    if (!value) value = { v: make() };
    return value.v;
  };
}

export function readJsonBody(
  raw: Uint8Array | undefined,
  contentType: string | undefined,
  contentCoding?: string,
): BodyRead {
  if (!raw || raw.length === 0) return { kind: 'absent' };
  if (!isJsonContentType(contentType)) {
    // FastAPI validates the bytes themselves (a 422 whose input is the decoded text); undecodable bytes cannot be echoed.
    const text = decodeRawText(raw);
    return {
      kind: 'value',
      value: text ?? latin1Text(raw),
      echo: () => {
        if (text === undefined) throw new UnrenderableJson('a body that is not UTF-8');
        return text;
      },
    };
  }
  const text = decodeJsonBytes(raw);
  if (text === undefined)
    throw new DomainError(
      'body_not_utf8',
      `The request body could not be decoded (UTF-8, UTF-16 or UTF-32 as json.loads reads them). Send JSON as UTF-8.${codingHint(contentCoding)}`,
    );
  let value: unknown;
  let echo: () => unknown;
  try {
    value = JSON.parse(text);
    const tree = once(() => {
      const decoded = decodePythonJson(text);
      return decoded.ok ? decoded.value : null;
    });
    if (LONG_DIGITS.test(text)) value = toJs(tree());
    echo = tree;
  } catch {
    const decoded = decodePythonJson(text);
    if (!decoded.ok) {
      return {
        kind: 'invalid',
        item: validationItem('json_invalid', ['body', decoded.pos], 'JSON decode error', {}, { error: decoded.msg }),
      };
    }
    value = toJs(decoded.value);
    echo = () => decoded.value;
  }
  if (text.length > MAX_JSON_DEPTH && nestingDepth(text) > MAX_JSON_DEPTH)
    throw new DomainError(
      'body_too_deep',
      `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep. Send a flatter body.`,
    );
  if (value === null) return { kind: 'absent' };
  return { kind: 'value', value, echo };
}

export const MISSING_BODY_ITEM = (): ValidationItem => validationItem('missing', ['body'], 'Field required', null);
