// The list's cursor: the seq the next page starts below (stable under inserts), tagged with the instance's secret and
// bound to the account and the filters it was issued for, so a cursor the emulator did not issue is refused.
import { ValidationFailure } from './errors.js';
import type { ListFilter } from './generation-source.js';
import { validationItem } from './validation-item.js';

/** Tags with the instance's signing secret (infra/signer.ts): the domain never holds the secret nor imports crypto. */
export interface CursorTags {
  tag(message: string): string;
  tagMatches(message: string, tag: string): boolean;
}

/** What a cursor is valid for: one account's list under one set of filters (any page size). */
export interface CursorScope {
  accountId: string;
  filter: ListFilter;
}

/** Every member of the scope in a fixed order, as JSON, so no two scopes (or positions) read the same. */
const messageOf = ({ accountId, filter }: CursorScope, before: number) =>
  JSON.stringify([
    'page',
    accountId,
    filter.kind ?? null,
    filter.status ?? null,
    filter.modelSlug ?? null,
    filter.from ?? null,
    filter.to ?? null,
    before,
  ]);

/** `<seq>.<tag>`: short, and opaque to a client, which passes it back unchanged. */
export const issueCursor = (tags: CursorTags, scope: CursorScope, before: number): string =>
  `${before}.${tags.tag(messageOf(scope, before))}`;

/** The seq a cursor issued for this scope starts below; anything else is the 422 `cursor_invalid`. */
export function readCursor(tags: CursorTags, scope: CursorScope, cursor: string): number {
  const dot = cursor.indexOf('.');
  const before = Number(cursor.slice(0, dot));
  // The position's canonical spelling only (no sign, exponent, spaces or leading zeros): what issueCursor writes.
  if (dot > 0 && Number.isSafeInteger(before) && String(before) === cursor.slice(0, dot)) {
    if (tags.tagMatches(messageOf(scope, before), cursor.slice(dot + 1))) return before;
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
