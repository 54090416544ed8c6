// Answers as the real FastAPI service writes them: compact JSON, UTF-8, `content-type: application/json`.
import type { ServiceResponse } from './exchange.js';
import { renderPythonJson, UnrenderableJson } from './validation/python-values.js';

/** The UTF-8 length of a string as Node writes it (a lone surrogate as the 3 bytes of U+FFFD), without encoding it. */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      // A pair: 4 bytes for 2 code units.
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 2;
        i++;
      } else bytes += 2;
    } else bytes += 2;
  }
  return bytes;
}

/** A text answer with its length. */
export function textAnswer(status: number, contentType: string, text: string): ServiceResponse {
  return { status, headers: { 'Content-Type': contentType, 'Content-Length': String(utf8Length(text)) }, body: text };
}

export const jsonAnswer = (status: number, body: unknown): ServiceResponse =>
  textAnswer(status, 'application/json', JSON.stringify(body));

export const errorAnswer = (
  status: number,
  code: string,
  message: string,
  details?: Record<string, unknown>,
): ServiceResponse => jsonAnswer(status, { error: { code, message, ...(details ?? {}) } });

/** Starlette's ServerErrorMiddleware answer, byte for byte: what the real service sends when it cannot render a 422. */
export const starlette500 = (): ServiceResponse =>
  textAnswer(500, 'text/plain; charset=utf-8', 'Internal Server Error');

/**
 * A 422 as FastAPI renders it (Python's json.dumps: number spellings, dict order). When Python could not render it
 * (NaN, infinities, lone surrogates in an echoed input), the real stack answers Starlette's plain 500; so do we.
 */
export function validationAnswer(detail: unknown): ServiceResponse {
  let text: string;
  try {
    text = renderPythonJson({ detail });
  } catch (error) {
    if (!(error instanceof UnrenderableJson)) throw error;
    return starlette500();
  }
  return textAnswer(422, 'application/json', text);
}
