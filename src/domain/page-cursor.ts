// The list's cursor: opaque to clients, it holds the seq the next page starts below, so paging is stable under inserts.
import { ValidationFailure } from './errors.js';
import { validationItem } from './validation-item.js';

export const encodeCursor = (seq: number) => Buffer.from(JSON.stringify({ v: 1, before: seq })).toString('base64url');

export function decodeCursor(cursor: string): number {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { v?: unknown; before?: unknown };
    if (parsed.v === 1 && Number.isSafeInteger(parsed.before)) return parsed.before as number;
  } catch {
    // fall through to the 422 below
  }
  throw new ValidationFailure([
    validationItem(
      'cursor_invalid',
      ['query', 'cursor'],
      'Cursor is not valid; pass the next_cursor value of a previous page unchanged',
      cursor,
    ),
  ]);
}
