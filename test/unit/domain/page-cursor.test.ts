// List cursors under the real signer: a cursor reads back in the scope it was issued for, and only there.
import { describe, expect, it } from 'vitest';
import { ValidationFailure } from '../../../src/domain/errors.js';
import type { ListFilter } from '../../../src/domain/generation-source.js';
import { type CursorScope, issueCursor, readCursor } from '../../../src/domain/page-cursor.js';
import { nodeCrypto } from '../../../src/infra/node/node-crypto.js';
import { createSigner } from '../../../src/infra/signer.js';

const signer = createSigner('page-cursor-test-secret', nodeCrypto);

const FILTER: ListFilter = {
  kind: 'video',
  status: 'completed',
  modelSlug: 'model-a',
  from: Date.UTC(2025, 0, 1),
  to: Date.UTC(2025, 1, 1),
};

function expectRefused(scope: CursorScope, cursor: string) {
  let thrown: unknown;
  try {
    readCursor(signer, scope, cursor);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ValidationFailure);
  expect((thrown as ValidationFailure).items).toStrictEqual([
    {
      type: 'cursor_invalid',
      loc: ['query', 'cursor'],
      msg: 'Cursor is not valid; pass the next_cursor value of a previous page unchanged',
      input: cursor,
    },
  ]);
}

describe('list cursors', () => {
  it('read back the position they were issued for, under the same account and filters', () => {
    const scope = { accountId: 'acct_1', filter: FILTER };
    expect(readCursor(signer, scope, issueCursor(signer, scope, 42))).toBe(42);
    const unfiltered = { accountId: 'acct_1', filter: {} };
    expect(readCursor(signer, unfiltered, issueCursor(signer, unfiltered, 7))).toBe(7);
  });

  it.each(Object.keys(FILTER) as (keyof ListFilter)[])(
    'are bound to the %s filter: refused without it, with another value, and when it was not set at issue',
    (member) => {
      const issuedWith = { accountId: 'acct_1', filter: FILTER };
      const cursor = issueCursor(signer, issuedWith, 42);
      const other = { kind: 'image', status: 'failed', modelSlug: 'model-b', from: 0, to: Date.UTC(2026, 0, 1) }[
        member
      ];
      expectRefused({ accountId: 'acct_1', filter: { ...FILTER, [member]: undefined } }, cursor);
      expectRefused({ accountId: 'acct_1', filter: { ...FILTER, [member]: other } }, cursor);
      const issuedWithout = { accountId: 'acct_1', filter: { ...FILTER, [member]: undefined } };
      expectRefused(issuedWith, issueCursor(signer, issuedWithout, 42));
    },
  );
});
